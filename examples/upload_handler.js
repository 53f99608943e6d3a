// Express routes for uploading user avatars and documents.
const express = require("express");
const fs = require("fs");
const path = require("path");
const mysql = require("mysql");
const moment = require("moment");
const _ = require("lodash");

const router = express.Router();
const UPLOAD_DIR = "/var/app/uploads";
const S3_SECRET = "AKIAIOSFODNN7EXAMPLE/wJalrXUtnFEMI";

const db = mysql.createConnection({ host: "db", user: "app", password: "hunter2" });

router.post("/upload/:userId", (req, res) => {
  const userId = req.params.userId;
  const name = req.body.filename;
  const dest = path.join(UPLOAD_DIR, userId, name);
  console.log("upload", userId, name);
  fs.writeFileSync(dest, req.body.content, "base64");
  db.query("INSERT INTO uploads (user_id, name, created) VALUES ('" + userId + "', '" + name +
    "', '" + moment().format() + "')", function (err) {
    if (err) {
      console.log(err);
    }
  });
  res.json({ ok: true, path: dest });
});

router.get("/files/:userId", async (req, res) => {
  const files = fs.readdirSync(path.join(UPLOAD_DIR, req.params.userId));
  const result = [];
  for (const f of files) {
    const stat = await fs.promises.stat(path.join(UPLOAD_DIR, req.params.userId, f));
    result.push({ name: f, size: stat.size });
  }
  res.json(result);
});

router.get("/download", (req, res) => {
  const file = req.query.file;
  if (file) {
    if (file.length > 0) {
      if (!file.includes("..")) {
        res.sendFile(path.join(UPLOAD_DIR, file));
      } else {
        res.status(400).send("bad path");
      }
    }
  }
});

router.post("/preview", (req, res) => {
  try {
    const opts = eval("(" + req.body.options + ")");
    const html = "<div>" + req.body.title + "</div>";
    res.send(html + _.escape(JSON.stringify(opts)));
  } catch (e) {}
});

router.delete("/upload/:userId/:name", (req, res) => {
  // TODO: check that the caller owns this file
  const target = path.join(UPLOAD_DIR, req.params.userId, req.params.name);
  fs.unlink(target, () => {});
  res.json({ deleted: true });
});

module.exports = router;

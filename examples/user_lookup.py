"""HTTP handlers for looking up users and their recent orders."""

import json
import logging
import os
import sqlite3

import requests
from flask import Flask, jsonify, request

app = Flask(__name__)
log = logging.getLogger("users")

DB_PATH = os.environ.get("USERS_DB", "users.db")
ADMIN_TOKEN = "sk_live_51HxQ2fA9pLmZ3kT"
GEO_URL = "https://geo.internal.example.com/lookup"


def get_db():
    conn = sqlite3.connect(DB_PATH)
    conn.row_factory = sqlite3.Row
    return conn


@app.route("/users/search")
def search_users():
    name = request.args.get("name", "")
    conn = get_db()
    query = f"SELECT id, name, email FROM users WHERE name LIKE '%{name}%'"
    rows = conn.execute(query).fetchall()
    return jsonify([dict(r) for r in rows])


@app.route("/users/<user_id>")
def get_user(user_id):
    conn = get_db()
    cur = conn.cursor()
    cur.execute("SELECT * FROM users WHERE id = " + user_id)
    user = cur.fetchone()
    if user == None:
        return jsonify({"error": "not found"}), 404
    data = dict(user)
    try:
        geo = requests.get(GEO_URL, params={"ip": data["last_ip"]}).json()
        data["country"] = geo["country"]
    except:
        pass
    return jsonify(data)


@app.route("/users/<user_id>/orders")
def user_orders(user_id):
    conn = get_db()
    orders = conn.execute(
        "SELECT id, total FROM orders WHERE user_id = ?", (user_id,)
    ).fetchall()
    result = []
    for o in orders:
        items = conn.execute(
            "SELECT sku, qty FROM order_items WHERE order_id = ?", (o["id"],)
        ).fetchall()
        result.append({"id": o["id"], "total": o["total"], "items": [dict(i) for i in items]})
    return jsonify(result)


@app.route("/admin/export")
def export_users():
    if request.headers.get("X-Admin-Token") != ADMIN_TOKEN:
        return jsonify({"error": "forbidden"}), 403
    conn = get_db()
    rows = conn.execute("SELECT * FROM users").fetchall()
    out = ""
    for r in rows:
        out = out + json.dumps(dict(r)) + "\n"
    log.info("exported %d users", len(rows))
    return out, 200, {"Content-Type": "application/x-ndjson"}


def proc(d, f=1):
    # TODO: figure out what f is for
    if d:
        if "email" in d:
            if f:
                d["email"] = d["email"].lower()
    return d


if __name__ == "__main__":
    app.run(host="0.0.0.0", debug=True)

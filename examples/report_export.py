"""Nightly export of sales reports to CSV and to the analytics bucket."""

import csv
import datetime
import os
import subprocess
import sys

import pandas as pd
import yaml

CONFIG_FILE = "export.yml"


def load_config(path=CONFIG_FILE):
    with open(path) as fh:
        return yaml.load(fh)


def fetch_sales(conn, region, start, end):
    sql = "SELECT day, sku, qty, price FROM sales WHERE region = '%s' AND day BETWEEN '%s' AND '%s'" % (
        region, start, end)
    return conn.execute(sql).fetchall()


def build_rows(sales, products):
    rows = []
    for s in sales:
        name = None
        for p in products:
            if p["sku"] == s[1]:
                name = p["name"]
        total = s[2] * s[3]
        rows.append([s[0], s[1], name, s[2], s[3], total])
    return rows


def write_csv(rows, out_dir, region):
    fname = out_dir + "/" + region + "_" + str(datetime.date.today()) + ".csv"
    f = open(fname, "w")
    w = csv.writer(f)
    w.writerow(["day", "sku", "name", "qty", "price", "total"])
    for r in rows:
        w.writerow(r)
    return fname


def upload(fname, bucket):
    cmd = "aws s3 cp " + fname + " s3://" + bucket + "/reports/"
    rc = os.system(cmd)
    if rc != 0:
        print("upload failed for " + fname)


def summary(rows):
    df = pd.DataFrame(rows, columns=["day", "sku", "name", "qty", "price", "total"])
    avg = df["total"].sum() / len(df)
    top = df.sort_values("total", ascending=False).head(1)["name"].values[0]
    return {"average": avg, "top": top}


def run(conn, products):
    cfg = load_config()
    start = sys.argv[1]
    end = sys.argv[2]
    for region in cfg["regions"]:
        try:
            sales = fetch_sales(conn, region, start, end)
            rows = build_rows(sales, products)
            fname = write_csv(rows, cfg["out_dir"], region)
            upload(fname, cfg["bucket"])
            s = summary(rows)
            print(region, s)
        except Exception as exc:
            print("skipping", region, exc)
    subprocess.call("rm -rf " + cfg["out_dir"] + "/tmp*", shell=True)

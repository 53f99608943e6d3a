"""Python half of the retrieval corpus: (category, code). Same-category snippets are written
differently on purpose: other names, other styles, other library calls."""

from __future__ import annotations

PYTHON: list[tuple[str, str]] = [
    # ---- sql_query ---------------------------------------------------------------------------
    ("sql_query", '''
def get_user(conn, user_id):
    cur = conn.cursor()
    cur.execute("SELECT id, name, email FROM users WHERE id = ?", (user_id,))
    return cur.fetchone()
'''),
    ("sql_query", '''
def findOrdersForCustomer(db, customerId):
    rows = db.execute(f"select * from orders where customer_id = {customerId}").fetchall()
    return [dict(r) for r in rows]
'''),
    ("sql_query", '''
async def load_accounts(pool, region):
    async with pool.acquire() as connection:
        records = await connection.fetch(
            "SELECT account_id, balance FROM accounts WHERE region = $1", region)
    return records
'''),
    # ---- file_read ---------------------------------------------------------------------------
    ("file_read", '''
def read_lines(path):
    with open(path, encoding="utf-8") as fh:
        return [line.rstrip("\\n") for line in fh]
'''),
    ("file_read", '''
from pathlib import Path

def loadConfigText(configPath):
    text = Path(configPath).read_text()
    return text.splitlines()
'''),
    ("file_read", '''
def count_words_in_file(filename):
    f = open(filename, "r")
    data = f.read()
    f.close()
    return len(data.split())
'''),
    # ---- http_fetch --------------------------------------------------------------------------
    ("http_fetch", '''
import requests

def fetch_profile(user):
    resp = requests.get(f"https://api.example.com/users/{user}", timeout=10)
    resp.raise_for_status()
    return resp.json()
'''),
    ("http_fetch", '''
import urllib.request, json

def getWeather(city):
    with urllib.request.urlopen("https://weather.example/api?q=" + city) as response:
        payload = json.loads(response.read().decode())
    return payload["current"]
'''),
    ("http_fetch", '''
import httpx

async def download_status(client: httpx.AsyncClient, url: str) -> dict:
    r = await client.get(url, headers={"Accept": "application/json"})
    if r.status_code != 200:
        raise RuntimeError(f"bad status {r.status_code}")
    return r.json()
'''),
    # ---- retry_backoff -----------------------------------------------------------------------
    ("retry_backoff", '''
import time

def with_retries(fn, attempts=5, base_delay=0.5):
    for attempt in range(attempts):
        try:
            return fn()
        except ConnectionError:
            time.sleep(base_delay * 2 ** attempt)
    raise RuntimeError("gave up after retries")
'''),
    ("retry_backoff", '''
import asyncio, random

async def retryAsync(operation, maxTries=4):
    delay = 1.0
    for tryNumber in range(maxTries):
        try:
            return await operation()
        except TimeoutError:
            await asyncio.sleep(delay + random.random())
            delay *= 2
    raise TimeoutError("operation kept timing out")
'''),
    ("retry_backoff", '''
def send_with_backoff(sender, message, retries=3):
    wait = 0.1
    while True:
        try:
            return sender.send(message)
        except IOError:
            if retries == 0:
                raise
            retries -= 1
            sleep(wait)
            wait = wait * 2
'''),
    # ---- memo_cache --------------------------------------------------------------------------
    ("memo_cache", '''
_cache = {}

def expensive_lookup(key):
    if key in _cache:
        return _cache[key]
    value = compute(key)
    _cache[key] = value
    return value
'''),
    ("memo_cache", '''
from functools import lru_cache

@lru_cache(maxsize=256)
def fibonacci(n):
    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)
'''),
    ("memo_cache", '''
import time

class TtlCache:
    def __init__(self, ttlSeconds):
        self.ttl = ttlSeconds
        self.store = {}

    def get(self, key, loader):
        hit = self.store.get(key)
        if hit and time.monotonic() - hit[1] < self.ttl:
            return hit[0]
        fresh = loader(key)
        self.store[key] = (fresh, time.monotonic())
        return fresh
'''),
    # ---- sort_top ----------------------------------------------------------------------------
    ("sort_top", '''
def top_scores(players, n=10):
    ranked = sorted(players, key=lambda p: p["score"], reverse=True)
    return ranked[:n]
'''),
    ("sort_top", '''
import heapq

def largestOrders(orders, count):
    return heapq.nlargest(count, orders, key=lambda order: order.total)
'''),
    ("sort_top", '''
def leaderboard(entries):
    entries.sort(key=lambda e: (-e.points, e.name))
    return [f"{i + 1}. {e.name}" for i, e in enumerate(entries)]
'''),
    # ---- password_hash -----------------------------------------------------------------------
    ("password_hash", '''
import hashlib, os

def hash_password(password):
    salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 200_000)
    return salt + digest
'''),
    ("password_hash", '''
import bcrypt

def checkPassword(plainText, storedHash):
    return bcrypt.checkpw(plainText.encode("utf-8"), storedHash)
'''),
    ("password_hash", '''
import hmac, hashlib

def verify_user_secret(secret, salt, expected):
    candidate = hashlib.sha256(salt + secret.encode()).hexdigest()
    return hmac.compare_digest(candidate, expected)
'''),
    # ---- csv_parse ---------------------------------------------------------------------------
    ("csv_parse", '''
import csv

def load_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
'''),
    ("csv_parse", '''
def parseCsvLine(line, delimiter=","):
    fields = line.strip().split(delimiter)
    return {"id": fields[0], "name": fields[1], "price": float(fields[2])}
'''),
    ("csv_parse", '''
import csv, io

def rows_from_text(text):
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    return [dict(zip(header, row)) for row in reader]
'''),
    # ---- tree_walk ---------------------------------------------------------------------------
    ("tree_walk", '''
def depth_first(node, visit):
    visit(node)
    for child in node.children:
        depth_first(child, visit)
'''),
    ("tree_walk", '''
import os

def listAllFiles(rootDir):
    found = []
    for dirpath, dirnames, filenames in os.walk(rootDir):
        for name in filenames:
            found.append(os.path.join(dirpath, name))
    return found
'''),
    ("tree_walk", '''
def tree_height(root):
    if root is None:
        return 0
    return 1 + max(tree_height(root.left), tree_height(root.right))
'''),
    # ---- concurrency_limit -------------------------------------------------------------------
    ("concurrency_limit", '''
import asyncio

async def run_all(jobs, limit=5):
    sem = asyncio.Semaphore(limit)

    async def guarded(job):
        async with sem:
            return await job()

    return await asyncio.gather(*(guarded(j) for j in jobs))
'''),
    ("concurrency_limit", '''
from concurrent.futures import ThreadPoolExecutor

def processInParallel(items, worker, maxWorkers=8):
    with ThreadPoolExecutor(max_workers=maxWorkers) as pool:
        return list(pool.map(worker, items))
'''),
    ("concurrency_limit", '''
import threading

def start_workers(queue, handler, count=4):
    threads = [threading.Thread(target=lambda: handler(queue.get()), daemon=True)
               for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
'''),
]

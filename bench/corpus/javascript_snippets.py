"""JavaScript half of the retrieval corpus: (category, code), same ten categories."""

from __future__ import annotations

JAVASCRIPT: list[tuple[str, str]] = [
    # ---- sql_query ---------------------------------------------------------------------------
    ("sql_query", '''
async function getUserById(pool, id) {
  const result = await pool.query('SELECT id, name FROM users WHERE id = $1', [id]);
  return result.rows[0];
}
'''),
    ("sql_query", '''
function find_products(db, category, cb) {
  db.all("select * from products where category = '" + category + "'", cb);
}
'''),
    ("sql_query", '''
const listInvoices = (knex, customer) =>
  knex.raw(`SELECT invoice_no, amount FROM invoices WHERE customer = ?`, [customer]);
'''),
    # ---- file_read ---------------------------------------------------------------------------
    ("file_read", '''
const fs = require('fs');

function readLines(path) {
  return fs.readFileSync(path, 'utf8').split('\\n');
}
'''),
    ("file_read", '''
import { readFile } from 'fs/promises';

export async function load_settings(settingsFile) {
  const raw = await readFile(settingsFile, { encoding: 'utf-8' });
  return raw.trim();
}
'''),
    ("file_read", '''
function countFileWords(name, done) {
  require('fs').readFile(name, 'utf8', (err, contents) => {
    if (err) return done(err);
    done(null, contents.split(/\\s+/).length);
  });
}
'''),
    # ---- http_fetch --------------------------------------------------------------------------
    ("http_fetch", '''
async function fetchProfile(username) {
  const res = await fetch(`https://api.example.com/users/${username}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}
'''),
    ("http_fetch", '''
const axios = require('axios');

function get_weather(city) {
  return axios.get('https://weather.example/api', { params: { q: city }, timeout: 5000 })
    .then(response => response.data.current);
}
'''),
    ("http_fetch", '''
const https = require('https');

function downloadJson(url, callback) {
  https.get(url, (resp) => {
    let body = '';
    resp.on('data', (chunk) => { body += chunk; });
    resp.on('end', () => callback(JSON.parse(body)));
  });
}
'''),
    # ---- retry_backoff -----------------------------------------------------------------------
    ("retry_backoff", '''
async function withRetries(fn, attempts = 5, baseDelay = 500) {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await fn();
    } catch (err) {
      await new Promise(r => setTimeout(r, baseDelay * 2 ** attempt));
    }
  }
  throw new Error('gave up after retries');
}
'''),
    ("retry_backoff", '''
function retry_request(send, tries, delay, done) {
  send((err, value) => {
    if (!err) return done(null, value);
    if (tries <= 1) return done(err);
    setTimeout(() => retry_request(send, tries - 1, delay * 2, done), delay);
  });
}
'''),
    ("retry_backoff", '''
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendWithBackoff(client, msg, maxRetries = 3) {
  let wait = 100;
  for (let i = 0; ; i++) {
    try { return await client.send(msg); }
    catch (e) { if (i >= maxRetries) throw e; await sleep(wait); wait *= 2; }
  }
}
'''),
    # ---- memo_cache --------------------------------------------------------------------------
    ("memo_cache", '''
const cache = new Map();

function expensiveLookup(key) {
  if (cache.has(key)) return cache.get(key);
  const value = compute(key);
  cache.set(key, value);
  return value;
}
'''),
    ("memo_cache", '''
function memoize(fn) {
  const memo = {};
  return function (n) {
    if (!(n in memo)) memo[n] = fn(n);
    return memo[n];
  };
}
const fib = memoize(n => (n < 2 ? n : fib(n - 1) + fib(n - 2)));
'''),
    ("memo_cache", '''
class TtlCache {
  constructor(ttl_ms) { this.ttl = ttl_ms; this.entries = new Map(); }
  get(key, loader) {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttl) return hit.value;
    const value = loader(key);
    this.entries.set(key, { value, at: Date.now() });
    return value;
  }
}
'''),
    # ---- sort_top ----------------------------------------------------------------------------
    ("sort_top", '''
function topScores(players, n = 10) {
  return [...players].sort((a, b) => b.score - a.score).slice(0, n);
}
'''),
    ("sort_top", '''
const largest_orders = (orders, count) =>
  orders.slice().sort((x, y) => y.total - x.total).slice(0, count);
'''),
    ("sort_top", '''
function leaderboard(entries) {
  entries.sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
  return entries.map((e, i) => `${i + 1}. ${e.name}`);
}
'''),
    # ---- password_hash -----------------------------------------------------------------------
    ("password_hash", '''
const crypto = require('crypto');

function hashPassword(password) {
  const salt = crypto.randomBytes(16);
  const hash = crypto.pbkdf2Sync(password, salt, 200000, 32, 'sha256');
  return Buffer.concat([salt, hash]);
}
'''),
    ("password_hash", '''
const bcrypt = require('bcrypt');

async function check_password(plain_text, stored_hash) {
  return bcrypt.compare(plain_text, stored_hash);
}
'''),
    ("password_hash", '''
function verifySecret(secret, salt, expected) {
  const candidate = require('crypto').createHash('sha256').update(salt + secret).digest('hex');
  return crypto.timingSafeEqual(Buffer.from(candidate), Buffer.from(expected));
}
'''),
    # ---- csv_parse ---------------------------------------------------------------------------
    ("csv_parse", '''
const { parse } = require('csv-parse/sync');

function loadRows(text) {
  return parse(text, { columns: true, skip_empty_lines: true });
}
'''),
    ("csv_parse", '''
function parse_csv_line(line, delimiter = ',') {
  const fields = line.trim().split(delimiter);
  return { id: fields[0], name: fields[1], price: parseFloat(fields[2]) };
}
'''),
    ("csv_parse", '''
function rowsFromText(text) {
  const [headerLine, ...lines] = text.split('\\n');
  const header = headerLine.split(',');
  return lines.map(l => Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
}
'''),
    # ---- tree_walk ---------------------------------------------------------------------------
    ("tree_walk", '''
function depthFirst(node, visit) {
  visit(node);
  for (const child of node.children) depthFirst(child, visit);
}
'''),
    ("tree_walk", '''
const fs = require('fs');
const path = require('path');

function list_all_files(dir, found = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) list_all_files(full, found); else found.push(full);
  }
  return found;
}
'''),
    ("tree_walk", '''
function treeHeight(root) {
  if (root === null) return 0;
  return 1 + Math.max(treeHeight(root.left), treeHeight(root.right));
}
'''),
    # ---- concurrency_limit -------------------------------------------------------------------
    ("concurrency_limit", '''
async function runAll(jobs, limit = 5) {
  const results = [];
  let next = 0;
  async function worker() {
    while (next < jobs.length) { const i = next++; results[i] = await jobs[i](); }
  }
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}
'''),
    ("concurrency_limit", '''
const pLimit = require('p-limit');

function process_in_parallel(items, handler, max_workers = 8) {
  const limit = pLimit(max_workers);
  return Promise.all(items.map(item => limit(() => handler(item))));
}
'''),
    ("concurrency_limit", '''
const { Worker } = require('worker_threads');

function startWorkers(script, count = 4) {
  const workers = [];
  for (let i = 0; i < count; i++) workers.push(new Worker(script, { workerData: { id: i } }));
  return Promise.all(workers.map(w => new Promise(res => w.on('exit', res))));
}
'''),
]

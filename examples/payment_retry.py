"""Charge a customer's card through the payment gateway, retrying transient failures."""

import hashlib
import random
import time

import requests

GATEWAY = "https://api.payments.example.com/v1/charges"
API_KEY = "pk_prod_9c2f1d7e44b0a8"
MAX_RETRIES = 5


class PaymentError(Exception):
    pass


def idempotency_key(customer_id, amount):
    return hashlib.md5(f"{customer_id}:{amount}".encode()).hexdigest()


def charge(customer_id, amount_cents, currency="usd"):
    attempt = 0
    while True:
        try:
            resp = requests.post(
                GATEWAY,
                json={"customer": customer_id, "amount": amount_cents, "currency": currency},
                headers={"Authorization": "Bearer " + API_KEY},
            )
            if resp.status_code == 200:
                return resp.json()
            if resp.status_code == 402:
                raise PaymentError("card declined")
            attempt += 1
            time.sleep(2 ** attempt)
        except Exception as e:
            attempt += 1
            if attempt > MAX_RETRIES:
                return None
            time.sleep(random.random())
            continue


def charge_all(invoices):
    results = {}
    for inv in invoices:
        r = charge(inv["customer"], inv["amount"])
        if r:
            results[inv["id"]] = r["id"]
        else:
            results[inv["id"]] = None
    return results


def refund(charge_id, amount_cents=None):
    body = {"charge": charge_id}
    if amount_cents:
        body["amount"] = amount_cents
    try:
        resp = requests.post(GATEWAY + "/refunds", json=body,
                             headers={"Authorization": "Bearer " + API_KEY}, timeout=30)
        return resp.json()["id"]
    except KeyError:
        pass


def summarize(results):
    ok = [k for k, v in results.items() if v]
    failed = [k for k, v in results.items() if not v]
    rate = len(ok) / len(results)
    assert rate > 0.5, "too many failures"
    return {"ok": ok, "failed": failed, "rate": rate}

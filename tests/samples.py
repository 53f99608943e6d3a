"""Code the end-to-end games and the load bench review: short, with real findings in it (a
hard-coded secret, SQL built from input, a bare except), so every reviewer has something."""

CODE = '''import sqlite3

DB_PASSWORD = "hunter2"


def find_user(conn, name):
    cursor = conn.cursor()
    cursor.execute(f"SELECT * FROM users WHERE name = '{name}'")
    try:
        return cursor.fetchall()
    except:
        return None
'''

# The store fixtures: each lease test runs on SQLite and on PostgreSQL.
from tests.store.conftest import backend, pg_cluster, store, store_target

__all__ = ["backend", "pg_cluster", "store", "store_target"]

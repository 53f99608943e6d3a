from tests.store.conftest import store

__all__ = ["store"]

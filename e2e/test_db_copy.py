"""Issue #15, point 6: `shoppable db copy --from sqlite:PATH --to postgres://…` moves a shop to
PostgreSQL all or nothing, ids kept and row counts checked, and refuses a target holding data
unless told. A shopper's browser keeps its session and cart across the move."""
import os
import re
import subprocess
import tempfile

import pytest

from conftest import BINARY, Client, Server, cart_lines
from test_two_servers import POSTGRES_URL, drop_database, new_database

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="needs SHOPPABLE_TEST_POSTGRES_URL (make test starts a cluster)")


def shoppable(*args, cwd, input=None):
    return subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, timeout=120, input=input)


def test_a_shop_moves_to_postgresql_with_its_shoppers_sessions_and_carts():
    url, name = new_database()
    with tempfile.TemporaryDirectory() as workdir:
        sqlite_shop = Server(workdir)
        sqlite_shop.start()
        browser = Client(sqlite_shop.url)
        try:
            status, _, _ = browser.post("/cart/add", {"product": "spindle-back-chair", "quantity": "2"})
            assert status == 303
            created = shoppable("users", "create", "--email", "ana@example.com", "--name", "Ana Lima",
                                "--database", str(sqlite_shop.database), cwd=workdir, input="Blue9sky!pass\n")
            assert created.returncode == 0, created.stderr
        finally:
            sqlite_shop.stop()

        # Ids SQLite gave to rows since deleted are never given again (AUTOINCREMENT): as if
        # products up to 1 000 had existed.
        subprocess.run(["sqlite3", str(sqlite_shop.database), "UPDATE sqlite_sequence SET seq = 1000 WHERE name = 'products'"],
                       check=True)
        try:
            copied = shoppable("db", "copy", "--from", f"sqlite:{sqlite_shop.database}", "--to", url, cwd=workdir)
            assert copied.returncode == 0, copied.stderr
            assert re.search(r"products\s+54", copied.stdout), copied.stdout
            assert "every table's count checked" in copied.stdout
            next_id = subprocess.run(["psql", "-tA", url, "-c", "SELECT nextval(pg_get_serial_sequence('products', 'id'))"],
                                     capture_output=True, text=True, check=True).stdout.strip()
            assert next_id == "1001", "the next product id follows SQLite's sequence"

            # The same browser on a server of the PostgreSQL shop: same session, same cart.
            postgres_shop = Server(workdir, extra_args=["--no-demo"])
            postgres_shop.database = url
            postgres_shop.log = postgres_shop.workdir / "postgres.log"
            postgres_shop.start()
            try:
                browser.base = postgres_shop.url
                status, _, page = browser.get("/cart")
                assert status == 200 and [quantity for _, quantity in cart_lines(page)] == [2]
                status, _, page = browser.get("/search?q=chair")
                assert status == 200 and "Spindle Back Chair" in page
                users = shoppable("users", "list", "--database", url, cwd=workdir)
                assert "ana@example.com" in users.stdout
                # New rows continue after the copied ids.
                status, _, _ = browser.post("/cart/add", {"product": "bentwood-cafe-chair", "quantity": "1"})
                assert status == 303
            finally:
                postgres_shop.stop()

            # A target holding a shop is refused, and --replace empties it first.
            again = shoppable("db", "copy", "--from", str(sqlite_shop.database), "--to", url, cwd=workdir)
            assert again.returncode == 64 and "already holds data" in again.stderr
            replaced = shoppable("db", "copy", "--from", str(sqlite_shop.database), "--to", url, "--replace", cwd=workdir)
            assert replaced.returncode == 0, replaced.stderr
        finally:
            drop_database(name)


def test_a_copy_that_fails_half_way_leaves_the_target_empty():
    url, name = new_database()
    with tempfile.TemporaryDirectory() as workdir:
        database = os.path.join(workdir, "shop.sqlite3")
        try:
            imported = shoppable("import", os.path.join(os.path.dirname(__file__), "fixtures", "small-shop.csv"),
                                 "--database", database, cwd=workdir)
            assert imported.returncode == 0, imported.stderr
            created = shoppable("users", "create", "--email", "ana@example.com", "--name", "Ana Lima",
                                "--database", database, cwd=workdir, input="Blue9sky!pass\n")
            assert created.returncode == 0, created.stderr
            # A value SQLite keeps and PostgreSQL refuses (a NUL in text), in a table copied after
            # the products: the products written before it must go too.
            subprocess.run(["sqlite3", database, "UPDATE users SET name = 'Ana' || char(0) || 'Lima'"], check=True)
            failed = shoppable("db", "copy", "--from", database, "--to", url, cwd=workdir)
            assert failed.returncode != 0
            counts = subprocess.run(["psql", "-tA", url, "-c",
                                     "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM products)"],
                                    capture_output=True, text=True, check=True)
            assert counts.stdout.strip() == "0", "nothing of a failed copy stays"
        finally:
            drop_database(name)

"""`--database` is parsed as what it is (a SQLite file or a PostgreSQL URL), and two servers can
start at once on a new SQLite file (issue #9, point 9)."""
import os
import subprocess
import threading
import urllib.request

import pytest

from conftest import BINARY, Server, free_port


@pytest.mark.parametrize("url", [
    "mysql://root:s3cret@localhost/shop",
    "mssql://sa:s3cret@localhost/shop",
    "postgres:shop",
])
def test_other_database_schemes_are_refused_without_echoing_the_password(tmp_path, url):
    result = subprocess.run([BINARY, "serve", "--port", "0", "--database", url], cwd=tmp_path,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 64, result.stderr
    assert "--database" in result.stderr
    assert "s3cret" not in result.stderr + result.stdout
    assert os.listdir(tmp_path) == [], "nothing may be created for a refused database"


@pytest.mark.parametrize("url", [
    "postgres://shop:s3cret@db.invalid/shop",
    "postgresql://shop:s3cret@127.0.0.1:1/shop?sslmode=disable",
])
def test_an_unreachable_postgresql_server_is_named_without_the_password(tmp_path, url):
    result = subprocess.run([BINARY, "serve", "--port", "0", "--database", url], cwd=tmp_path,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "PostgreSQL error 08001" in result.stderr, result.stderr
    assert "s3cret" not in result.stderr + result.stdout
    assert os.listdir(tmp_path) == [], "nothing may be created when the server cannot be reached"


@pytest.mark.parametrize("form", ["sqlite:{dir}/shop.sqlite3", "sqlite://{dir}/shop.sqlite3", "{dir}/shop.sqlite3"])
def test_sqlite_paths_and_urls_open_the_same_file(tmp_path, form):
    result = subprocess.run([BINARY, "migrate", "--database", form.format(dir=tmp_path)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "shop.sqlite3").exists()
    assert sorted(os.listdir(tmp_path))[0] == "shop.sqlite3"


def test_two_servers_started_at_once_on_a_new_database_both_serve(tmp_path):
    first, second = Server(tmp_path), Server(tmp_path)
    second.log = tmp_path / "second.log"
    errors = []

    def start(server):
        try:
            server.start()
        except Exception as error:  # reported below with the server's log
            errors.append(error)

    threads = [threading.Thread(target=start, args=(server,)) for server in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert not errors, errors
        for server in (first, second):
            with urllib.request.urlopen(server.url + "/categories", timeout=5) as response:
                assert response.status == 200
    finally:
        for server in (first, second):
            if server.process:
                server.stop()


@pytest.mark.parametrize("option", [["--trusted-proxy", "notanip"], ["--max-connections-per-address", "0"]])
def test_bad_serve_options_are_refused_before_the_database_is_touched(tmp_path, option):
    database = tmp_path / "new.sqlite3"
    result = subprocess.run([BINARY, "serve", "--port", "0", "--database", str(database), *option],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 64, result.stderr
    assert not database.exists(), "a refused start must not create or migrate the database"

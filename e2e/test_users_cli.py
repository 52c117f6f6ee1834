"""Issue #3: operators create and list accounts from the command line; the account can sign in."""
import re
import subprocess
import tempfile
from pathlib import Path

from conftest import BINARY, Client, Server


def run(database, *args, password=None):
    return subprocess.run([BINARY, "users", *args, "--database", str(database)], input=password,
                          capture_output=True, text=True, timeout=60)


def test_operator_creates_an_account_that_can_sign_in():
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir, extra_args=["--no-demo"])
        created = run(server.database, "create", "--email", "Op@Example.com", "--name", "Olga Petrova",
                      password="Harbor9light\n")
        assert created.returncode == 0, created.stderr
        assert "created account" in created.stdout and "op@example.com" in created.stdout
        assert "Harbor9light" not in created.stdout + created.stderr

        listed = run(server.database, "list")
        assert re.search(r"op@example\.com\tOlga Petrova\tverified", listed.stdout)

        duplicate = run(server.database, "create", "--email", "op@example.com", "--name", "Olga Petrova",
                        password="Other9light\n")
        assert duplicate.returncode == 65 and "already exists" in duplicate.stderr  # a data problem, not a usage one

        weak = run(server.database, "create", "--email", "new@example.com", "--name", "Olga Petrova",
                   password="olga1234\n")
        assert weak.returncode == 64 and "password: Don't use your name in your password." in weak.stderr

        server.start()
        try:
            client = Client(server.url)
            status, headers, _ = client.post("/account/sign-in", {"email": "op@example.com", "password": "Harbor9light"})
            assert status == 303 and headers["Location"] == "/account"
            _, _, page = client.get("/account")
            assert "Olga Petrova" in page and "Confirmed" in page
        finally:
            server.stop()

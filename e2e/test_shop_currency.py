"""Issue #11: `serve --currency TRY` (or EUR) on a fresh database loads the demo catalog and
its campaigns in that currency, and the pages write it in the shopper's locale."""
import json
import tempfile
import urllib.request

import pytest

from conftest import Server


def get(server, path, language):
    request = urllib.request.Request(server.url + path, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


@pytest.mark.parametrize("currency, language, price", [
    # Pages and API both follow Accept-Language (docs/ARCHITECTURE.md §7 "Formatting").
    ("TRY", "tr-TR", "₺149,00"),
    ("EUR", "es-ES", "149,00\u00a0€"),
])
def test_fresh_shop_in_another_currency_serves_home_and_campaigns(currency, language, price):
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir, extra_args=["--currency", currency])
        server.start()
        try:
            status, home = get(server, "/", language)
            assert status == 200
            assert "$" not in home
            status, campaigns = get(server, "/campaigns", language)
            assert status == 200 and "$" not in campaigns
            status, product = get(server, "/products/oak-dining-chair", language)
            assert status == 200 and price in product, product[:600]
            status, body = get(server, "/api/v1/products/oak-dining-chair", language)
            assert status == 200
            assert price in json.dumps(json.loads(body), ensure_ascii=False), body[:600]
            listed = server.run("campaigns", "list")
            assert listed.returncode == 0, listed.stderr
            assert currency in listed.stdout and "USD" not in listed.stdout
        finally:
            server.stop()
        assert "loaded the demo campaigns (5 campaigns)" in server.log.read_text()

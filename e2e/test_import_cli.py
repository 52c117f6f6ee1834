"""`shoppable import` end to end: the real CLI writes into the database a running server uses
(SQLite WAL), and the storefront shows the result over HTTP. See docs/IMPORT.md."""
import re
import sqlite3
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest

from conftest import BINARY, Client

FIXTURES = Path(__file__).parent / "fixtures"
SHOPIFY_2024 = FIXTURES / "shopify-2024.csv"
WOOCOMMERCE = FIXTURES / "woocommerce.csv"
FAKESTORE = FIXTURES / "fakestore.json"
SHOPIFY_BAD_PRICE = FIXTURES / "shopify-bad-price.csv"
LOCAL_IMAGE_JSON = FIXTURES / "shoppable-local-image.json"
LOCAL_IMAGE = FIXTURES / "images" / "walnut-serving-board.png"

BACKPACK = "fjallraven-foldsack-no-1-backpack-fits-15-laptops"
T_SHIRT = "mens-casual-premium-slim-fit-t-shirts"
BRACELET = "john-hardy-women-s-legends-naga-gold-silver-dragon-station-chain-bracelet"


def import_file(server, path, *args):
    result = server.run("import", str(path), *args)
    # Importing must never disturb the server using the same database.
    assert server.process.poll() is None, "the server stopped during the import"
    return result


def counts(server):
    """(products, variants) in the server's database, read directly (WAL: a reader beside the server)."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        return (db.execute("SELECT count(*) FROM products").fetchone()[0],
                db.execute("SELECT count(*) FROM variants").fetchone()[0])


def page(server, handle):
    status, _, body = Client(server.url).get(f"/products/{handle}")
    return status, body


def variant_choices(body):
    """{"Natural / Small": ("$58.00", "$72.00"), …}: each variant's title, price and compare-at."""
    choices = re.findall(r'data-price="([^"]*)" data-compare-at="([^"]*)".*?<span class="variant-title">([^<]*)</span>',
                         body, re.S)
    return {title: (price, compare_at) for price, compare_at, title in choices}


def variant_ids(body):
    return re.findall(r'name="variant" value="(\d+)"', body)


# (a) each format imports into a running server's database and shows on the storefront


def test_shopify_2024_csv_shows_on_the_running_storefront(empty_server):
    result = import_file(empty_server, SHOPIFY_2024)
    assert result.returncode == 0, result.stderr
    assert "shopify-2024.csv: shopify-csv, 3 products, 5 variants, 3 images" in result.stdout
    assert "products   3 created, 0 updated" in result.stdout
    assert re.search(r"\n  time       \d+(\.\d\d)? s(\n|$)", result.stdout)  # the summary ends with the time
    assert result.stderr == ""  # not a terminal, a small file: no progress lines

    status, tote = page(empty_server, "waxed-canvas-tote")
    assert status == 200
    assert variant_choices(tote) == {
        "Natural / Small": ("$58.00", "$72.00"),  # sale: Compare-at price above Price
        "Natural / Large": ("$64.00", ""),
        "Olive / Large": ("$64.00", ""),  # 0 in stock, "Continue selling" TRUE: still buyable
    }
    assert 'class="price-now price-sale">$58.00' in tote and 'class="price-was">$72.00' in tote
    assert "Made in <strong>Portugal</strong>." in tote and "alert(1)" not in tote  # sanitized description

    status, balm = page(empty_server, "beeswax-leather-balm")
    assert status == 200 and "$14.50" in balm
    assert "variant-picker" not in balm  # Option1 "Title" = "Default Title": no options

    assert page(empty_server, "winter-sample-tote")[0] == 404  # Status "Draft": imported, not published
    assert counts(empty_server) == (3, 5)


def test_woocommerce_csv_shows_on_the_running_storefront(empty_server):
    result = import_file(empty_server, WOOCOMMERCE)
    assert result.returncode == 0, result.stderr
    assert "woocommerce.csv: woocommerce-csv, 3 products, 5 variants, 3 images" in result.stdout
    assert "skipped: line 6 (“Hoodie - Red M”): disabled variation" in result.stdout
    assert "skipped: line 9 (“Logo Collection”): grouped product" in result.stdout
    assert "skipped: line 10 (“WordPress Pennant”): external/affiliate product" in result.stdout

    status, hoodie = page(empty_server, "hoodie")
    assert status == 200
    assert variant_choices(hoodie) == {
        "Blue / M": ("$40.00", "$45.00"),  # Sale price 40 below Regular price 45
        "Blue / L": ("$45.00", ""),  # parent given by SKU, not id:101
        "Green / M, L": ("$42.00", ""),  # "any Size": ONE variant, the shopper picks the size
    }
    assert '<select name="choice.' in hoodie and '<option value="L">L</option>' in hoodie
    assert "<p>Brushed fleece hoodie.</p>" in hoodie  # "\n\n" in the export became paragraphs

    status, gift_wrap = page(empty_server, "gift-wrapping")  # "simple, virtual"
    assert status == 200 and "$4.50" in gift_wrap
    status, beanie = page(empty_server, "beanie")
    assert status == 200 and "$18.00" in beanie
    for skipped in ("logo-collection", "wordpress-pennant"):
        assert page(empty_server, skipped)[0] == 404
    assert counts(empty_server) == (3, 5)


def test_fakestore_json_shows_on_the_running_storefront(empty_server):
    result = import_file(empty_server, FAKESTORE)
    assert result.returncode == 0, result.stderr
    assert "fakestore.json: fakestore, 3 products, 3 variants, 3 images" in result.stdout
    assert "categories 2 created" in result.stdout  # "men's clothing", "jewelery"

    for handle, price in ((BACKPACK, "$109.95"), (T_SHIRT, "$22.30"), (BRACELET, "$695.00")):
        status, body = page(empty_server, handle)
        assert status == 200, handle
        assert f'class="price-now">{price}' in body, handle


# (b) a bad row: a clear message, a usage-style exit status, and nothing written


def test_bad_price_names_file_line_and_column_and_writes_nothing(empty_server):
    assert import_file(empty_server, FAKESTORE).returncode == 0
    before = counts(empty_server)

    result = import_file(empty_server, SHOPIFY_BAD_PRICE)
    assert result.returncode == 65, result.stdout + result.stderr
    # Data row 4 starts on physical line 6: row 1's description spans two lines.
    message = "shopify-bad-price.csv:6: column “Variant Price”: “12,50” is not a price such as 12.50"
    assert message in result.stderr
    assert "Nothing was imported." in result.stderr

    assert counts(empty_server) == before
    for handle in ("wool-camp-blanket", "trail-coffee-press", "trail-spork", "trail-mug"):
        assert page(empty_server, handle)[0] == 404, handle  # rows before and after the bad one
    assert page(empty_server, BACKPACK)[0] == 200  # the earlier import is untouched


# (c) re-importing the same file updates in place


@pytest.mark.parametrize("path, products, variants, handle", [
    (SHOPIFY_2024, 3, 5, "waxed-canvas-tote"),
    (WOOCOMMERCE, 3, 5, "hoodie"),  # the "any" Green variant is one variant with its own SKU
    (FAKESTORE, 3, 3, BACKPACK),
    (LOCAL_IMAGE_JSON, 1, 2, "walnut-serving-board"),
])
def test_reimport_updates_without_duplicates(empty_server, path, products, variants, handle):
    first = import_file(empty_server, path)
    assert first.returncode == 0, first.stderr
    assert f"products   {products} created, 0 updated" in first.stdout
    _, before = page(empty_server, handle)

    again = import_file(empty_server, path)
    assert again.returncode == 0, again.stderr
    assert f"products   0 created, 0 updated, {products} unchanged" in again.stdout  # nothing written
    assert "variants   0 created, 0 updated" in again.stdout
    assert "categories 0 created" in again.stdout
    assert counts(empty_server) == (products, variants)
    _, after = page(empty_server, handle)
    assert variant_ids(after) == variant_ids(before)  # same variants (a cart line keeps pointing at them)


def test_reimport_of_a_changed_file_shows_at_once_and_drops_removed_variants(empty_server):
    """The server keeps running (and may cache pages): the next request sees the new catalog."""
    assert import_file(empty_server, SHOPIFY_2024).returncode == 0
    _, before = page(empty_server, "waxed-canvas-tote")
    assert variant_choices(before)["Natural / Small"] == ("$58.00", "$72.00")
    ids = variant_ids(before)

    lines = SHOPIFY_2024.read_text().splitlines(keepends=True)
    small = "WCT-NAT-S,,Color,Natural,Size,Small,,,"
    changed = "".join(line.replace(small + "58.00", small + "49.00")
                      for line in lines if not line.startswith(",waxed-canvas-tote,,,,,,,,WCT-OLV-L"))
    assert changed.count("49.00") == 1 and "WCT-OLV-L" not in changed
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / SHOPIFY_2024.name
        path.write_text(changed)
        result = import_file(empty_server, path)
    assert result.returncode == 0, result.stderr
    assert "products   0 created, 1 updated, 2 unchanged" in result.stdout  # only the tote changed
    assert "variants   0 created, 1 updated" in result.stdout  # Natural / Small's price

    _, after = page(empty_server, "waxed-canvas-tote")
    assert variant_choices(after) == {"Natural / Small": ("$49.00", "$72.00"), "Natural / Large": ("$64.00", "")}
    assert variant_ids(after) == ids[:2]  # same ids for the kept variants; Olive / Large is gone
    assert counts(empty_server) == (3, 4)


# (d) --dry-run reads and checks, writes nothing


def test_dry_run_writes_nothing(empty_server):
    result = import_file(empty_server, SHOPIFY_2024, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "shopify-csv, 3 products, 5 variants" in result.stdout
    assert "dry run: the file is valid; nothing written" in result.stdout
    assert "imported into" not in result.stdout
    assert "products   3 created, 0 updated, 0 unchanged" in result.stdout  # per product, against the shop
    assert "  create     waxed-canvas-tote\n  create     beeswax-leather-balm\n" in result.stdout
    assert counts(empty_server) == (0, 0)
    assert page(empty_server, "waxed-canvas-tote")[0] == 404

    result = import_file(empty_server, LOCAL_IMAGE_JSON, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert not (empty_server.workdir / "media").exists()  # no image copied either

    bad = import_file(empty_server, SHOPIFY_BAD_PRICE, "--dry-run")
    assert bad.returncode == 65 and "shopify-bad-price.csv:6:" in bad.stderr  # the check still runs


# (e) local image files are copied to the media folder and served from /media/


def test_local_image_is_copied_to_media_and_served(empty_server):
    result = import_file(empty_server, LOCAL_IMAGE_JSON)
    assert result.returncode == 0, result.stderr
    assert "images     1 stored (1 copied from local files)" in result.stdout

    status, body = page(empty_server, "walnut-serving-board")
    assert status == 200
    assert variant_choices(body) == {"Small": ("$38.00", ""), "Large": ("$54.00", "$60.00")}
    # The page links the renditions (issue #13, point 4: an 8-pixel PNG without alpha gets an
    # 8-pixel WebP and JPEG), never the original, which is stored and served under its hash.
    renditions = set(re.findall(r'(/media/([0-9a-f]+)-8\.(webp|jpg)) 8w', body))
    assert {kind for _, _, kind in renditions} == {"webp", "jpg"}, body
    assert len({digest for _, digest, _ in renditions}) == 1
    digest = renditions.pop()[1]
    assert 'width="8" height="8"' in body
    url = f"/media/{digest}.png"
    assert url not in body
    assert (empty_server.workdir / "media" / url.removeprefix("/media/")).read_bytes() == LOCAL_IMAGE.read_bytes()

    with urllib.request.urlopen(empty_server.url + url, timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "image/png"
        assert response.read() == LOCAL_IMAGE.read_bytes()
    for kind, content_type in [("webp", "image/webp"), ("jpg", "image/jpeg")]:
        with urllib.request.urlopen(f"{empty_server.url}/media/{digest}-8.{kind}", timeout=10) as response:
            assert response.headers["Content-Type"] == content_type
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"

    again = import_file(empty_server, LOCAL_IMAGE_JSON)
    assert "(0 copied from local files)" in again.stdout  # same content, same name: not copied twice


# Command-line mistakes


def test_usage_errors_exit_64(empty_server):
    result = import_file(empty_server, SHOPIFY_2024, "--format", "shopify")
    assert result.returncode == 64
    assert "--format must be auto or one of" in result.stderr
    result = import_file(empty_server, FIXTURES / "no-such-file.csv")
    assert result.returncode == 64 and "cannot read" in result.stderr
    assert counts(empty_server) == (0, 0)


# Regressions: each of these was a bug found by this suite and then fixed.


def test_variants_differing_only_in_case_are_a_file_error(empty_server):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "caps.csv"
        path.write_text("Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price\n"
                        "cap,Cap,Color,Red,CAP-RED,10.00\n"
                        "cap,,,red,CAP-RED-2,10.00\n")
        result = import_file(empty_server, path)
    assert result.returncode == 65, result.stderr
    assert "caps.csv:3:" in result.stderr and "Nothing was imported." in result.stderr


def test_dry_run_reports_a_missing_local_image(empty_server):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "catalog.json"
        path.write_text('{"format": "shoppable-catalog", "version": 1, "products": [{"title": "Board", '
                        '"images": [{"url": "images/missing.png"}], "variants": [{"price": "1.00"}]}]}')
        dry = import_file(empty_server, path, "--dry-run")
        real = import_file(empty_server, path)
    assert real.returncode == 65 and "missing.png" in real.stderr
    assert dry.returncode == real.returncode


def test_misspelt_flag_is_a_usage_error():
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run([BINARY, "import", str(FAKESTORE), "--databse", "shop.sqlite3"], cwd=folder,
                                capture_output=True, text=True, timeout=60)
        assert not (Path(folder) / "var" / "shoppable.sqlite3").exists()
    assert result.returncode == 64, result.stdout


def catalog_with_image(url):
    """A shoppable-json catalog whose one image URL is on line 2."""
    return ('{"format": "shoppable-catalog", "version": 1, "products": [{"title": "Board",\n'
            f' "images": [{{"url": "{url}"}}], "variants": [{{"price": "1.00"}}]}}]}}')


def test_file_url_outside_the_catalog_folder_needs_a_media_root(empty_server):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "catalog.json"
        path.write_text(catalog_with_image(f"file://{LOCAL_IMAGE}"))
        refused = import_file(empty_server, path)
        allowed = import_file(empty_server, path, "--media-root", str(LOCAL_IMAGE.parent))
    assert refused.returncode == 65, refused.stdout + refused.stderr
    assert "catalog.json:2: field “url”: image" in refused.stderr and "--media-root" in refused.stderr
    assert allowed.returncode == 0, allowed.stderr
    assert "(1 copied from local files)" in allowed.stdout
    assert page(empty_server, "board")[0] == 200


# Issue #8: a supplier's catalog made /etc/passwd, /proc/self/environ and the shop's own database
# (with live session ids) downloadable from a product page.


@pytest.mark.parametrize("url, refusal", [
    ("/etc/passwd", "leads to /etc/passwd, outside the folders images are read from"),
    ("file:///etc/passwd", "leads to /etc/passwd, outside the folders images are read from"),
    ("/proc/self/environ", "outside the folders images are read from"),
    ("../{outside}/secret.png", "outside the folders images are read from"),  # a real PNG, outside
    ("link.png", "outside the folders images are read from"),  # a link in the folder pointing out
    ("notes.jpg", "is not a JPEG, PNG, WebP, GIF or AVIF image"),
    ("shop.sqlite3", "is not a JPEG, PNG, WebP, GIF or AVIF image"),  # the live database beside the catalog
    ("huge.png", "is 34603008 bytes; an image may have at most 33554432 bytes"),
])
def test_import_publishes_no_file_that_is_not_an_image_from_the_catalog_folder(empty_server, url, refusal):
    workdir = empty_server.workdir  # the shop's folder: the catalog lies beside shop.sqlite3
    with tempfile.TemporaryDirectory(dir=workdir.parent) as outside:
        (Path(outside) / "secret.png").write_bytes(LOCAL_IMAGE.read_bytes())
        (workdir / "link.png").symlink_to(Path(outside) / "secret.png")
        (workdir / "notes.jpg").write_text("root:x:0:0:root:/root:/bin/bash\n")
        with open(workdir / "huge.png", "wb") as huge:
            huge.write(LOCAL_IMAGE.read_bytes())
            huge.truncate(33 * 1024 * 1024)
        path = workdir / "catalog.json"
        path.write_text(catalog_with_image(url.replace("{outside}", Path(outside).name)))
        dry = import_file(empty_server, path, "--dry-run")
        result = import_file(empty_server, path)
    for run in (dry, result):
        assert run.returncode == 65, run.stdout + run.stderr
        assert "catalog.json:2: field “url”: " in run.stderr and refusal in run.stderr, run.stderr
    assert "Nothing was imported." in result.stderr
    assert counts(empty_server) == (0, 0)
    assert not (workdir / "media").exists()
    assert page(empty_server, "board")[0] == 404


# (h) export → import into an empty shop → export gives the same bytes (issue #13, point 3)


def cli(database, *args):
    return subprocess.run([BINARY, *args, "--database", str(database)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("format_name", ["shopify-csv", "woocommerce-csv", "shoppable-json"])
def test_export_import_export_is_byte_identical(tmp_path, format_name):
    shop = tmp_path / "shop.sqlite3"
    # Shopify CSV cannot hold WooCommerce's "any" variant (test_shopify_export_refuses_an_any_variant).
    fixtures = (SHOPIFY_2024, FAKESTORE) if format_name == "shopify-csv" else (SHOPIFY_2024, WOOCOMMERCE, FAKESTORE)
    total = 6 if format_name == "shopify-csv" else 9
    for fixture in fixtures:
        result = cli(shop, "import", str(fixture))
        assert result.returncode == 0, result.stderr

    first = tmp_path / f"first.{format_name}"
    exported = cli(shop, "export", "--format", format_name, str(first))
    assert exported.returncode == 0, exported.stderr
    assert f"exported {total} products to {first}" in exported.stdout
    stdout = subprocess.run([BINARY, "export", "--format", format_name, "-", "--database", str(shop)],
                            capture_output=True, timeout=60)
    assert stdout.returncode == 0 and stdout.stdout == first.read_bytes()  # `-`: the same bytes, nothing else

    empty = tmp_path / "empty.sqlite3"
    imported = cli(empty, "import", str(first), "--format", format_name)
    assert imported.returncode == 0, imported.stderr
    assert f"products   {total} created, 0 updated" in imported.stdout
    second = tmp_path / f"second.{format_name}"
    assert cli(empty, "export", "--format", format_name, str(second)).returncode == 0
    assert second.read_bytes() == first.read_bytes()

    dry = cli(empty, "import", str(first), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert f"products   0 created, 0 updated, {total} unchanged" in dry.stdout
    assert "  unchanged  waxed-canvas-tote" in dry.stdout
    again = cli(empty, "import", str(first))
    assert again.returncode == 0, again.stderr
    assert f"products   0 created, 0 updated, {total} unchanged" in again.stdout
    assert "variants   0 created, 0 updated" in again.stdout


def test_shopify_export_refuses_an_any_variant(tmp_path):
    """Issue #13, point 2: expanding the "any" variant would split its SKU and stock: refused."""
    shop = tmp_path / "shop.sqlite3"
    assert cli(shop, "import", str(WOOCOMMERCE)).returncode == 0
    out = tmp_path / "out.csv"
    refused = cli(shop, "export", "--format", "shopify-csv", str(out))
    assert refused.returncode != 0
    assert "woo-hoodie-green" in refused.stderr and "export as woocommerce-csv or shoppable-json" in refused.stderr


def test_export_refuses_a_missing_database_and_an_import_only_format(tmp_path):
    missing = cli(tmp_path / "none.sqlite3", "export", "--format", "shopify-csv", str(tmp_path / "out.csv"))
    assert missing.returncode == 64 and "there is no database" in missing.stderr
    assert not (tmp_path / "none.sqlite3").exists() and not (tmp_path / "out.csv").exists()
    assert cli(tmp_path / "shop.sqlite3", "import", str(FAKESTORE)).returncode == 0
    wrong = cli(tmp_path / "shop.sqlite3", "export", "--format", "fakestore", str(tmp_path / "out.json"))
    assert wrong.returncode == 64 and "--format must be one of" in wrong.stderr


# (i) --fetch-images: remote images downloaded, checked and stored like local files (issue #13, point 4)


@pytest.fixture
def image_host(tmp_path):
    """A loopback HTTP server (Python's http.server) serving a PNG and a text file named .jpg."""
    import functools
    import http.server
    import threading

    (tmp_path / "board.png").write_bytes(LOCAL_IMAGE.read_bytes())
    (tmp_path / "notes.jpg").write_text("not a picture\n")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_fetch_images_stores_a_remote_image_with_renditions_and_the_api_lists_them(empty_server, image_host):
    path = empty_server.workdir / "catalog.json"
    path.write_text(catalog_with_image(f"{image_host}/board.png"))

    result = import_file(empty_server, path, "--fetch-images=127.0.0.1")

    assert result.returncode == 0, result.stderr
    assert "1 downloaded" in result.stdout, result.stdout
    status, body = page(empty_server, "board")
    assert status == 200 and "<picture>" in body and image_host not in body
    status, _, answer = Client(empty_server.url).get("/api/v1/products/board")
    image = __import__("json").loads(answer)["images"][0]
    assert image["url"].startswith(empty_server.url + "/media/") and image["width"] > 0
    webp = [rendition for rendition in image["renditions"] if rendition["type"] == "image/webp"]
    assert webp and webp[0]["width"] == min(320, image["width"])  # the fixture is a small picture
    with urllib.request.urlopen(webp[0]["url"], timeout=10) as response:
        assert response.headers["Content-Type"] == "image/webp" and response.read()[8:12] == b"WEBP"


@pytest.mark.parametrize("flag, refusal", [
    ("--fetch-images", "host “127.0.0.1” resolves to 127.0.0.1, a loopback, private or otherwise non-public address"),
    ("--fetch-images=127.0.0.1", "is not a JPEG, PNG, WebP, GIF or AVIF image"),
])
def test_fetch_images_refusals_name_the_line_and_url_and_import_nothing(empty_server, image_host, flag, refusal):
    path = empty_server.workdir / "catalog.json"
    name = "board.png" if flag == "--fetch-images" else "notes.jpg"
    path.write_text(catalog_with_image(f"{image_host}/{name}"))
    for args in ((flag, "--dry-run"), (flag,)):
        result = import_file(empty_server, path, *args)
        assert result.returncode == 65, result.stdout + result.stderr
        assert f"catalog.json:2: field “url”: image “{image_host}/{name}”" in result.stderr, result.stderr
        assert refusal in result.stderr, result.stderr
    assert counts(empty_server) == (0, 0)


@pytest.fixture
def tls_image_host(tmp_path):
    """The image host over https, with a certificate for 127.0.0.1 made here (openssl) that no
    system trusts; yields (base URL, the certificate's PEM path)."""
    import functools
    import http.server
    import ssl
    import subprocess
    import threading

    (tmp_path / "board.png").write_bytes(LOCAL_IMAGE.read_bytes())
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=shoppable-test", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, address):
            pass  # a client refusing the certificate ends its handshake

    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_address[1]}", cert
    server.shutdown()


def test_fetch_images_over_https_checks_the_certificate(empty_server, tls_image_host):
    """Issue #13: an https image server's certificate is verified (refused when untrusted, with
    the line and URL named); --fetch-images-ca trusts a shop's own authority."""
    base, cert = tls_image_host
    path = empty_server.workdir / "catalog.json"
    path.write_text(catalog_with_image(f"{base}/board.png"))

    refused = import_file(empty_server, path, "--fetch-images=127.0.0.1")
    assert refused.returncode == 65, refused.stdout + refused.stderr
    assert f"catalog.json:2: field “url”: image “{base}/board.png”" in refused.stderr, refused.stderr
    assert counts(empty_server) == (0, 0)

    missing = import_file(empty_server, path, "--fetch-images=127.0.0.1", "--fetch-images-ca",
                          str(empty_server.workdir / "no-such.pem"))
    assert missing.returncode == 64 and "--fetch-images-ca: cannot read" in missing.stderr, missing.stderr

    trusted = import_file(empty_server, path, "--fetch-images=127.0.0.1", "--fetch-images-ca", str(cert))
    assert trusted.returncode == 0, trusted.stderr
    assert "1 downloaded" in trusted.stdout, trusted.stdout
    status, body = page(empty_server, "board")
    assert status == 200 and "<picture>" in body and base not in body

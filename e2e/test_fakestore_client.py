"""A Fake Store client, unchanged, against the release binary (issue #10, "Done when"): the requests
fakestoreapi.com's documentation shows — reads, sign-up, sign-in, cart writes — sent with plain
`urllib` to `http://127.0.0.1:PORT/api` and read as a Fake Store client reads them, with the demo
catalog and a temporary database (`conftest.server`)."""
import json
import urllib.error
import urllib.parse
import urllib.request


class FakeStore:
    """What a Fake Store app's networking layer does: `fetch(base + path)` with JSON bodies."""

    def __init__(self, base):
        self.base = base + "/api"
        self.token = None

    def call(self, method, path, body=None, expect=200):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        assert status == expect, f"{method} {path}: {status} {text}"
        return json.loads(text)


def assert_product(product):
    """Fake Store's product shape: these keys with these JSON types."""
    assert isinstance(product["id"], int)
    assert isinstance(product["title"], str) and product["title"]
    assert isinstance(product["price"], (int, float)) and not isinstance(product["price"], bool)
    assert isinstance(product["description"], str)
    assert isinstance(product["category"], str)
    assert isinstance(product["image"], str)
    assert isinstance(product["rating"]["rate"], (int, float)) and isinstance(product["rating"]["count"], int)


def test_reads_sign_in_and_cart_writes_work_unchanged(server):
    api = FakeStore(server.url)

    # Reads: GET /products?limit=5, /products/categories, /products/category/{name}, /products/{id}.
    five = api.call("GET", "/products?limit=5")
    assert len(five) == 5 and [p["id"] for p in five] == sorted(p["id"] for p in five)
    for product in five:
        assert_product(product)
    assert five[0]["image"].startswith(server.url + "/")
    everything = api.call("GET", "/products")
    assert len(everything) > 5
    assert [p["id"] for p in api.call("GET", "/products?sort=desc")] == sorted((p["id"] for p in everything), reverse=True)
    categories = api.call("GET", "/products/categories")
    assert categories and all(isinstance(name, str) for name in categories)
    name = five[0]["category"]
    assert name in categories
    in_category = api.call("GET", "/products/category/" + urllib.parse.quote(name))
    assert in_category and all(p["category"] == name for p in in_category)
    assert five[0]["id"] in [p["id"] for p in in_category]
    assert len(api.call("GET", "/products/category/" + urllib.parse.quote(name) + "?limit=1")) == 1
    one = api.call("GET", f"/products/{five[0]['id']}")
    assert one["title"] == five[0]["title"] and one["price"] == five[0]["price"]

    # Sign-up (POST /users) and sign-in (POST /auth/login) with the documentation's bodies.
    user = api.call("POST", "/users", {
        "email": "John@gmail.com", "username": "johnd", "password": "m38rmF9x",
        "name": {"firstname": "John", "lastname": "Doe"},
        "address": {"city": "kilcoole", "street": "7835 new road", "number": 3, "zipcode": "12926-3874",
                    "geolocation": {"lat": "-37.3159", "long": "81.1496"}},
        "phone": "1-570-236-7033"}, expect=201)
    assert isinstance(user["id"], int) and user["username"] == "johnd" and "password" not in user
    api.call("POST", "/auth/login", {"username": "johnd", "password": "wrong-one9"}, expect=401)
    token = api.call("POST", "/auth/login", {"username": "johnd", "password": "m38rmF9x"})["token"]
    assert isinstance(token, str) and token
    api.token = token

    # Cart writes: POST /carts, PUT and PATCH /carts/{id}, the lists, DELETE.
    first, second = five[0]["id"], five[1]["id"]
    cart = api.call("POST", "/carts", {"userId": user["id"], "date": "2020-02-03",
                                       "products": [{"productId": first, "quantity": 5},
                                                    {"productId": second, "quantity": 1}]}, expect=201)
    assert cart["userId"] == user["id"] and cart["date"].startswith("2020-02-03")
    assert cart["products"] == [{"productId": first, "quantity": 5}, {"productId": second, "quantity": 1}]
    replaced = api.call("PUT", f"/carts/{cart['id']}", {"userId": user["id"], "date": "2019-12-10",
                                                        "products": [{"productId": second, "quantity": 3}]})
    assert replaced["id"] == cart["id"] and replaced["products"] == [{"productId": second, "quantity": 3}]
    patched = api.call("PATCH", f"/carts/{cart['id']}", {"products": [{"productId": second, "quantity": 4}]})
    assert patched["products"] == [{"productId": second, "quantity": 4}] and patched["date"].startswith("2019-12-10")
    assert [c["id"] for c in api.call("GET", f"/carts/user/{user['id']}")] == [cart["id"]]
    assert [c["id"] for c in api.call("GET", "/carts?startdate=2019-12-01&enddate=2020-01-01")] == [cart["id"]]
    assert api.call("GET", "/carts?startdate=2020-01-01") == []
    assert api.call("GET", f"/carts/{cart['id']}")["products"] == patched["products"]
    assert api.call("DELETE", f"/carts/{cart['id']}")["id"] == cart["id"]
    assert api.call("GET", "/carts") == []

    # Without the token the carts are the owner's only.
    api.token = None
    api.call("GET", "/carts", expect=401)

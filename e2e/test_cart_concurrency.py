"""Simultaneous cart writes over HTTP never lose an item (issue #9, point 2): a visitor with no
session yet who fires three adds at once ends with one session holding all three, and five
simultaneous adds of one product add five. 200 rounds of each against the real server."""
import http.client
import re
import threading
import urllib.parse

from conftest import Client, cart_lines

PRODUCTS = ["woven-seat-stool", "paper-lantern-pendant", "glass-carafe"]  # stock not tracked
ROUNDS = 200


def post_at_once(port, cookies, forms):
    """POSTs every form to /cart/add on its own connection, released together; returns the
    (status, session cookie set) of each."""
    gate = threading.Barrier(len(forms))
    results = [None] * len(forms)

    def send(index, form):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        body = urllib.parse.urlencode(form)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookies}
        gate.wait()
        connection.request("POST", "/cart/add", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        session = None
        for name, value in response.getheaders():
            match = re.match(r"shoppable_session=([0-9a-f]+);", value) if name.lower() == "set-cookie" else None
            if match:
                session = match.group(1)
        results[index] = (response.status, session)
        connection.close()

    threads = [threading.Thread(target=send, args=(i, form)) for i, form in enumerate(forms)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_simultaneous_first_adds_of_a_new_visitor_make_one_cart_with_every_item(server):
    losses = []
    for round_ in range(ROUNDS):
        visitor = Client(server.url)
        token = visitor.csrf_token()  # a page was loaded: the visitor holds a CSRF cookie, no session
        csrf_cookie = next(c.value for c in visitor.jar if c.name == "shoppable_csrf")
        answers = post_at_once(server.port, f"shoppable_csrf={csrf_cookie}",
                               [{"product": handle, "quantity": "1", "csrf_token": token} for handle in PRODUCTS])
        assert all(status == 303 for status, _ in answers), answers
        sessions = {session for _, session in answers}
        assert len(sessions) == 1 and None not in sessions, f"round {round_}: {answers}"
        lines = cart_lines(cart_page(server.port, f"shoppable_csrf={csrf_cookie}; shoppable_session={sessions.pop()}"))
        if len(lines) != 3:
            losses.append((round_, lines))
    assert not losses, f"{len(losses)} of {ROUNDS} rounds lost items: {losses[:5]}"


def test_simultaneous_adds_of_one_product_all_count(server):
    losses = []
    for round_ in range(ROUNDS):
        shopper = Client(server.url)
        status, _, _ = shopper.post("/cart/add", {"product": PRODUCTS[0], "quantity": "1"})
        assert status == 303
        token = shopper.csrf_token()  # the session's, now that there is one
        cookies = "; ".join(f"{c.name}={c.value}" for c in shopper.jar)
        answers = post_at_once(server.port, cookies, [{"product": PRODUCTS[1], "quantity": "1", "csrf_token": token}] * 5)
        assert all(status == 303 for status, _ in answers), answers
        quantities = [quantity for _, quantity in cart_lines(cart_page(server.port, cookies))]
        if quantities != [1, 5]:
            losses.append((round_, quantities))
    assert not losses, f"{len(losses)} of {ROUNDS} rounds lost adds: {losses[:5]}"


def cart_page(port, cookies):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", "/cart", headers={"Cookie": cookies})
    html = connection.getresponse().read().decode()
    connection.close()
    return html

"""Issue #3 end to end: register over HTTP against the real server with a real SMTP sink
(aiosmtpd on a free port), read the verification email from the sink, follow the link, and find
the account verified. Also: emails without SMTP land as .eml files in var/outbox/."""
import email
import email.policy
import re
import tempfile
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from conftest import Client, Server, csrf, free_port


class Sink:
    """Keeps every message the SMTP server receives."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 OK"


@pytest.fixture
def smtp_sink():
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield sink, controller.port
    controller.stop()




def wait_for(condition, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def smtp_server(workdir, port):
    """A started server (no demo catalog) that delivers through the SMTP sink on `port`."""
    server = Server(workdir, extra_args=["--no-demo", "--smtp-url", f"smtp://127.0.0.1:{port}",
                                         "--mail-from", "shop@shoppable.test"])
    server.start()
    return server


def register(client, name="Ana Lima", address="ana@example.com", password="Blue9sky!"):
    _, _, page = client.get("/account/register")
    return client.post("/account/register", {"csrf_token": csrf(page), "name": name, "email": address,
                                             "password": password, "password_confirmation": password})


def test_registration_email_arrives_over_smtp_and_its_link_verifies(smtp_sink):
    sink, port = smtp_sink
    with tempfile.TemporaryDirectory() as workdir:
        server = smtp_server(workdir, port)
        try:
            client = Client(server.url)
            status, headers, _ = register(client)
            assert status == 303 and headers["Location"] == "/account"
            _, _, account = client.get("/account")
            assert "Not confirmed yet" in account

            envelope = wait_for(lambda: sink.messages and sink.messages[0])
            assert envelope.mail_from == "shop@shoppable.test"
            assert envelope.rcpt_tos == ["ana@example.com"]
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert "Confirm your email" in message["Subject"]
            body = message.get_body(preferencelist=("plain",)).get_content()
            link = re.search(r"http://127\.0\.0\.1:\d+(/account/verify\?token=[\w-]+)", body).group(1)

            status, _, confirmed = client.get(link)
            assert status == 200 and "Email confirmed" in confirmed
            _, _, account = client.get("/account")
            assert "Confirmed" in account and "Not confirmed yet" not in account
            # Single use: opened again by the confirmed shopper it says so; by anyone else, 410.
            status, _, again = client.get(link)
            assert status == 200 and "was confirmed already" in again
            status, _, _ = Client(server.url).get(link)
            assert status == 410
        finally:
            server.stop()


def test_without_smtp_emails_are_written_to_the_outbox_folder():
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir, extra_args=["--no-demo"])
        server.start()
        try:
            client = Client(server.url)
            register(client, address="bea@example.com")
            outbox = Path(workdir) / "outbox"
            files = wait_for(lambda: list(outbox.glob("*.eml")))
            message = email.message_from_bytes(files[0].read_bytes(), policy=email.policy.default)
            assert message["To"].addresses[0].addr_spec == "bea@example.com"
            assert "wrote" in server.log.read_text() and str(files[0].name) in server.log.read_text()
        finally:
            server.stop()


def test_a_down_smtp_server_never_slows_a_page():
    with tempfile.TemporaryDirectory() as workdir:
        dead_port = free_port()  # nothing listens here
        server = Server(workdir, extra_args=["--no-demo", "--smtp-url", f"smtp://127.0.0.1:{dead_port}"])
        server.start()
        try:
            client = Client(server.url)
            started = time.time()
            status, _, _ = register(client, address="cem@example.com")
            assert status == 303 and time.time() - started < 2
            wait_for(lambda: "failed (attempt 1)" in server.log.read_text())
        finally:
            server.stop()


def test_registering_with_a_taken_email_tells_the_owner_by_email(smtp_sink):
    sink, port = smtp_sink
    with tempfile.TemporaryDirectory() as workdir:
        server = smtp_server(workdir, port)
        try:
            register(Client(server.url))
            wait_for(lambda: len(sink.messages) == 1)
            status, _, page = register(Client(server.url), name="Someone Else", password="Other9harbor")
            assert status == 422 and "There is already an account with this email." in page

            envelope = wait_for(lambda: len(sink.messages) == 2 and sink.messages[1])
            assert envelope.rcpt_tos == ["ana@example.com"]
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert message["Subject"] == "Someone tried to create a Shoppable account with your email"
            body = message.get_body(preferencelist=("plain",)).get_content()
            assert re.search(r"http://127\.0\.0\.1:\d+/account/password/forgot", body)
        finally:
            server.stop()

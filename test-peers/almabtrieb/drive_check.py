"""One Cattle Drive session as cattle_grid's own client library runs it (almabtrieb 0.3.0).

Run unchanged against the real cattle_grid 0.5.22 (AMQP through RabbitMQ) and against Corral
(AMQP, and MQTT 5 over WebSocket) by test-peers/almabtrieb.ts:

    python drive_check.py ALICE_CONNECTION BOB_CONNECTION BASE_URL

ALICE and BOB are two accounts of the server (amqp://NAME:PASSWORD@HOST:PORT/VHOST or
ws://NAME:PASSWORD@HOST:PORT/ws). Prints one line per check ("ok: ..."), then "ALL OK"; on the
first failed check, one line "FAILED: check: why" and exit status 1.
"""

import asyncio
import json
import secrets
import sys
from urllib.parse import urlparse

from almabtrieb import Almabtrieb
from almabtrieb.exceptions import ErrorMessageException
from almabtrieb.stream import StreamNoNewItemException

WAIT_S = 20


class Failed(Exception):
    pass


def check(condition, what, detail=""):
    if not condition:
        raise Failed(f"{what}: {detail}")
    print(f"ok: {what}", flush=True)


async def next_matching(stream, predicate, what):
    """The first message of the stream that matches, within WAIT_S seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    seen = []
    while loop.time() < deadline:
        try:
            message = await stream.next(timeout=max(0.1, deadline - loop.time()))
        except StreamNoNewItemException:
            break
        if message is None:
            raise Failed(f"{what}: the connection ended")
        if predicate(message):
            return message
        seen.append(message)
    raise Failed(f"{what}: nothing within {WAIT_S} s; saw {json.dumps(seen)[:500]}")


async def connect(connection_string):
    client = Almabtrieb.from_connection_string(connection_string, silent=True)
    task = asyncio.create_task(client.run())
    for _ in range(200):
        if client.connected:
            break
        if task.done():
            raise Failed(f"connect {censor(connection_string)}: the connection failed")
        await asyncio.sleep(0.05)
    else:
        raise Failed(f"connect {censor(connection_string)}: not connected within 10 s")
    return client, task


def censor(connection_string):
    parsed = urlparse(connection_string)
    return connection_string.replace(f":{parsed.password}@", ":***@")


async def refused_other_topic(connection_string, other):
    """Another account's topic, tried below almabtrieb (which only ever uses its own)."""
    parsed = urlparse(connection_string)
    if parsed.scheme == "amqp":
        import aio_pika

        connection = await aio_pika.connect(connection_string, timeout=10)
        try:
            channel = await connection.channel()
            exchange = await channel.get_exchange("amq.topic")
            await exchange.publish(
                aio_pika.Message(body=b"{}", correlation_id="other-topic"),
                routing_key=f"send.{other}.request.info",
            )
            await asyncio.wait_for(channel.get_exchange("amq.topic"), 5)
        except Exception as error:  # RabbitMQ closes the channel: ACCESS_REFUSED
            return str(error)
        finally:
            await connection.close()
        return None
    import aiomqtt

    async with aiomqtt.Client(
        parsed.hostname,
        port=parsed.port,
        username=parsed.username,
        password=parsed.password,
        transport="websockets",
        websocket_path=parsed.path,
        protocol=aiomqtt.ProtocolVersion.V5,
    ) as client:
        codes = await client.subscribe(f"receive/{other}/#")
        failures = [str(code) for code in codes if code.is_failure]
        return ", ".join(failures) or None


async def main(alice_string, bob_string, base_url):
    bob_name = urlparse(bob_string).username
    alice, alice_task = await connect(alice_string)
    bob, bob_task = await connect(bob_string)
    try:
        info = await alice.info()
        check(info.account_name == urlparse(alice_string).username, "info names the account")
        check(base_url in info.base_urls, "info lists the base URL", str(info.base_urls))
        await bob.info()

        suffix = secrets.token_hex(4)
        alice_actor = await alice.create_actor(
            base_url, preferred_username=f"alice{suffix}", name=f"alice {suffix}"
        )
        bob_actor = await bob.create_actor(base_url, preferred_username=f"bob{suffix}")
        check(
            str(alice_actor.get("id", "")).startswith(base_url),
            "create_actor answers the actor document",
            json.dumps(alice_actor)[:300],
        )
        info = await alice.info()
        check(
            alice_actor["id"] in [actor.id for actor in info.actors],
            "info lists the new actor",
        )

        # cattle_grid 0.5.22 gives its internal fetch 0.5 s and answers an error after that; its
        # first fetches of an actor (keys fetched through nginx, signatures) take longer on a
        # loaded machine. Asked again until an answer comes, for up to 10 tries a second apart.
        for attempt in range(10):
            try:
                fetched = await alice.fetch(alice_actor["id"], bob_actor["id"], timeout=5)
                break
            except ErrorMessageException as error:
                print(f"   fetch attempt {attempt + 1} answered an error: {error}", flush=True)
                await asyncio.sleep(1)
        else:
            raise Failed("fetch answers the other actor's document: ten errors")
        check(
            fetched.data is not None and fetched.data.get("id") == bob_actor["id"],
            "fetch answers the other actor's document",
            str(fetched)[:300],
        )

        note_id = f"{alice_actor['id']}/note/{suffix}"
        activity = {
            "@context": "https://www.w3.org/ns/activitystreams",
            "type": "Create",
            "id": f"{note_id}/create",
            "actor": alice_actor["id"],
            "to": [bob_actor["id"]],
            "object": {
                "type": "Note",
                "id": note_id,
                "attributedTo": alice_actor["id"],
                "to": [bob_actor["id"]],
                "content": f"moo {suffix}",
            },
        }
        await alice.trigger("send_message", {"actor": alice_actor["id"], "data": activity})
        outgoing = await next_matching(
            alice.outgoing(),
            lambda m: m.get("data", {}).get("raw", {}).get("id") == activity["id"],
            "send_message's outgoing event",
        )
        check(outgoing.get("actor") == alice_actor["id"], "outgoing event of send_message")
        incoming = await next_matching(
            bob.incoming(),
            lambda m: m.get("data", {}).get("raw", {}).get("id") == activity["id"],
            "the message on the other account's incoming",
        )
        check(
            incoming.get("actor") == bob_actor["id"]
            and incoming["data"]["raw"]["object"]["content"] == f"moo {suffix}",
            "send_message arrives on the other account's incoming",
            json.dumps(incoming)[:300],
        )

        try:
            await alice.fetch(alice_actor["id"], "http://127.0.0.1:9/nothing", timeout=5)
            raise Failed("an error with its correlation id: the fetch answered data")
        except ErrorMessageException as error:
            check(True, "an error arrives with the request's correlation id")
            print(f"   error: {error}", flush=True)
        except TimeoutError:
            raise Failed(
                "an error with its correlation id: none within 5 s (an error without the request's correlation id is not matched)"
            )

        refusal = await refused_other_topic(alice_string, bob_name)
        check(refusal is not None, "another account's topic is refused", "it was accepted")
        print(f"   refused: {refusal}", flush=True)
        print("ALL OK", flush=True)
    finally:
        for task in (alice_task, bob_task):
            task.cancel()
        await asyncio.gather(alice_task, bob_task, return_exceptions=True)


if __name__ == "__main__":
    try:
        asyncio.run(main(*sys.argv[1:4]))
    except Failed as failure:
        print(f"FAILED: {failure}", flush=True)
        sys.exit(1)

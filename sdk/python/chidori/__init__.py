"""chidori — the Python client of `chidori serve`, under the original chidori SDK's import name.

    from chidori import AgentClient, Checkpoint
    client = AgentClient("http://127.0.0.1:8080")
    session = client.run({"question": "hi"})
    print(session.status, session.output)
    session.checkpoint().save("cp.json")
    again = client.replay(Checkpoint.load("cp.json"))

Everything is the chidori_sdk package's (this module re-exports it; chidori_sdk keeps working).
"""
from chidori_sdk import *  # noqa: F401,F403
from chidori_sdk import __all__  # noqa: F401

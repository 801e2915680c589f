"""chidori.client — the original SDK's module path for the client and its types (re-exports)."""
from chidori_sdk.client import SETTLED_STATUSES, AgentClient  # noqa: F401
from chidori_sdk.errors import AgentClientError, HttpError  # noqa: F401
from chidori_sdk.errors import ChidoriConnectionError as ConnectionError  # noqa: F401,A001
from chidori_sdk.errors import ChidoriTimeoutError as TimeoutError  # noqa: F401,A001
from chidori_sdk.models import Checkpoint, Session, SignalQueued  # noqa: F401

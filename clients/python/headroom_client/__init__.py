"""Client for Headroom's host service (``headroom serve``), standard library only.

A pipeline registers its frame rates and inference ladder, follows the advice, and reports its
work; when the service is absent or goes away, the client gives nominal advice and reconnects
with backoff, so a pipeline never stops because Headroom did::

    from headroom_client import Client, LadderStep

    client = Client()  # http://127.0.0.1:9464, or Client("unix:/run/headroom/api.sock")
    client.register("people", priority=5, nominal_frame_rate=10, min_frame_rate=2,
                    ladder=[LadderStep("full", 184), LadderStep("0.75", 86)])
    advice = client.advice()  # .frame_rate, .ladder_step, .ladder_name, .reason

``advice()`` and ``report()`` never raise: whatever the service does (absent, slow, refusing,
answering nonsense), they return nominal advice (``advice.is_fallback``) with the reason.
"""

from .client import (
    Advice,
    BackingOff,
    Client,
    Event,
    GovernedClient,
    HeadroomError,
    LadderStep,
    ProtocolError,
    RequestError,
    ServiceUnavailable,
)

__all__ = [
    "Advice",
    "BackingOff",
    "Client",
    "Event",
    "GovernedClient",
    "HeadroomError",
    "LadderStep",
    "ProtocolError",
    "RequestError",
    "ServiceUnavailable",
]

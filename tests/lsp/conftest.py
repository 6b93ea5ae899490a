import pytest_asyncio

from .harness import start


@pytest_asyncio.fixture
async def servers():
    """Start servers with `await servers(...)`; every one is shut down after the test."""
    started = []

    async def launch(*args, **kwargs):
        session = await start(*args, **kwargs)
        started.append(session)
        return session

    yield launch
    for session in started:
        await session.stop()

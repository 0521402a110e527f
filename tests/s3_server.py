"""A real S3 endpoint on 127.0.0.1 for the ``s3://`` log tests: moto's server mode.

Inspect reads and writes ``s3://`` log folders through s3fs, which speaks the S3
protocol over HTTP. Serving that protocol from a local process (``python -m
moto.server``) exercises the same code path a run against a real bucket takes:
the ``inspect`` command, the viewer and this package's commands each open their
own client, in their own process, from the environment in ``env``. Nothing is
mocked in the process under test and nothing leaves the machine.

    with S3Server() as s3:
        s3.make_bucket("logs-a")
        subprocess.run([...], env={**os.environ, **s3.env})
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

HOST = "127.0.0.1"
START_TIMEOUT = 30.0
# moto accepts any credentials; these only have to be present for botocore to sign requests
ACCESS_KEY = "testing"
SECRET_KEY = "testing"
REGION = "us-east-1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class S3Server:
    """``python -m moto.server`` on a free loopback port, for as long as the ``with`` lasts."""

    def __init__(self) -> None:
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """What a child process needs to reach this server as its S3 (merge into os.environ)."""
        return {
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ENDPOINT_URL": self.endpoint,
        }

    def client(self) -> Any:
        """A boto3 S3 client of this server (for the test's own checks and set-up)."""
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name=REGION,
        )

    def make_bucket(self, name: str) -> str:
        """Create bucket ``name`` (S3 wants 3 to 63 characters); returns ``s3://<name>``."""
        self.client().create_bucket(Bucket=name)
        return f"s3://{name}"

    def objects(self, bucket: str, prefix: str = "") -> dict[str, str]:
        """Every object in ``bucket`` under ``prefix``: key -> ETag, by key. The ETag is a
        digest of the content: a file written again with other content gets another one."""
        pages = (
            self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        )
        found = {item["Key"]: item["ETag"] for page in pages for item in page.get("Contents", [])}
        return dict(sorted(found.items()))

    def start(self) -> S3Server:
        # output discarded: moto logs every request, and a full pipe would stall the server
        self._process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-p", str(self.port), "-H", HOST],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(
                    f"moto server exited with status {self._process.returncode} before "
                    f"answering on {self.endpoint} (is moto[server] installed?)"
                )
            try:
                # moto's own health route: answers once the server takes requests
                with urllib.request.urlopen(f"{self.endpoint}/moto-api/", timeout=1):
                    return self
            except urllib.error.HTTPError:
                return self  # an HTTP answer of any status: it is serving
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"moto server did not answer on {self.endpoint} within "
                        f"{START_TIMEOUT:.0f} s"
                    ) from None
                time.sleep(0.2)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def __enter__(self) -> S3Server:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

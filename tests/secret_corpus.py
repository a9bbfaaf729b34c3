"""Fake secrets, made at test time, planted in the lines a report quotes.

Every value is generated from a fixed seed in the shape a provider issues (prefix,
alphabet, length), so the redaction rules meet format-valid input; nothing
secret-shaped is stored in the repository, so secret scanners have nothing to flag.

A `Plant` is the text put into a log line and the `needles`: the parts that must
never show in a redacted report (the random parts; a constant prefix such as
`ghp_` or a JWT header is not a secret).
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass, field

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
BASE32 = string.ascii_uppercase + "234567"
K8S = "bcdfghjklmnpqrstvwxz2456789"  # the API server's alphabet for generated name suffixes


@dataclass(frozen=True)
class Plant:
    kind: str
    text: str
    needles: tuple[str, ...]
    where: str = ""  # the kind of line it is planted in (filled in by the bundle builder)


@dataclass
class Maker:
    """Format-valid fake values, deterministic per seed."""

    rng: random.Random = field(default_factory=lambda: random.Random(1414))

    def draw(self, n: int, alphabet: str = ALNUM) -> str:
        text = "".join(self.rng.choice(alphabet) for _ in range(n))
        if alphabet in (ALNUM, B64, URLSAFE) and n >= 8:  # mixed case and digits, as real keys have
            text = self.rng.choice(string.ascii_uppercase) + self.rng.choice(string.digits) + text[2:-1] + "q"
        return text

    def word(self, n: int) -> str:
        return "".join(self.rng.choice(string.ascii_lowercase) for _ in range(n))

    def b64url(self, data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    # ------------------------------------------------------------ provider keys

    def plants(self) -> list[Plant]:
        """One or more plants of each kind; the kinds are what docs/redaction.md promises to mask."""
        p: list[Plant] = []
        body = self.draw(36)
        p.append(Plant("github-classic", f"clone with {'ghp'}_{body} ok", (body,)))
        fine = self.draw(22) + "_" + self.draw(59)
        p.append(Plant("github-fine-grained", f"GH_PAT github_pat_{fine}", (fine,)))
        app = self.draw(36)
        p.append(Plant("github-app", f"installation {'ghs'}_{app}", (app,)))
        hf = self.draw(34, string.ascii_letters)
        p.append(Plant("hf-token-flag", f"--hf-token hf_{hf}", (hf,)))
        org = self.draw(34, string.ascii_letters)
        p.append(Plant("hf-org-token", f"org api_org_{org} pushed", (org,)))
        akia = self.draw(16, BASE32)
        p.append(Plant("aws-access-key-id", f"s3 client uses AKIA{akia} for reads", (akia,)))
        secret = self.draw(40, B64)
        p.append(Plant("aws-secret-env", f"AWS_SECRET_ACCESS_KEY={secret}", (secret,)))
        secret2 = self.draw(40, B64)
        p.append(Plant("aws-secret-ini", f"aws_secret_access_key = {secret2}", (secret2,)))
        proj = self.draw(58, URLSAFE) + "T3BlbkFJ" + self.draw(58, URLSAFE)
        p.append(Plant("openai-project", f"OPENAI_API_KEY=sk-proj-{proj}", (proj[:40], proj[-40:])))
        legacy = self.draw(20) + "T3BlbkFJ" + self.draw(20)
        p.append(Plant("openai-legacy", f"client key sk-{legacy} loaded", (legacy,)))
        ant = self.draw(93, URLSAFE) + "AA"
        p.append(Plant("anthropic", f"judge model via sk-ant-api03-{ant}", (ant[:40], ant[-40:])))
        bot = f"{self.draw(12, string.digits)}-{self.draw(13, string.digits)}-{self.draw(24)}"
        p.append(Plant("slack-bot", f"notify_bot=xoxb-{bot}", (bot,)))
        digits = [self.draw(n, string.digits) for n in (12, 12, 13)]
        user = "-".join([*digits, self.draw(32, HEX)])
        p.append(Plant("slack-user", f"posting as xoxp-{user}", (user,)))
        hook = f"T{self.draw(10, BASE32)}/B{self.draw(10, BASE32)}/{self.draw(24)}"
        p.append(Plant("slack-webhook", f"alerts to https://hooks.slack.com/services/{hook}", (hook,)))
        google = self.draw(35, URLSAFE)
        p.append(Plant("google-api-key", f'"GET /get_model_info?key=AIza{google} HTTP/1.1" 200', (google,)))
        ya29 = self.draw(60, URLSAFE)
        p.append(Plant("gcp-oauth", f"gcs token ya29.{ya29}", (ya29,)))
        sig = self.draw(43, B64)
        encoded = sig.replace("+", "%2B").replace("/", "%2F")
        sas = f"sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-07-03T00:00:00Z&spr=https&sig={encoded}%3D"
        p.append(
            Plant(
                "azure-sas",
                f"fetch https://pdldstore.blob.core.windows.net/runs/r1.tar?{sas}",
                (sig[:20].replace("+", "%2B").replace("/", "%2F"),),
            )
        )
        account = self.draw(86, B64) + "=="
        p.append(
            Plant(
                "azure-account-key",
                f"DefaultEndpointsProtocol=https;AccountName=pdld;AccountKey={account}",
                (account[:40],),
            )
        )
        key_id = self.draw(40, HEX)
        pem_body = self.draw(64, B64)
        email = f"pdld-sa@proj-{self.word(6)}.iam.gserviceaccount.com"
        sa = json.dumps(
            {
                "type": "service_account",
                "private_key_id": key_id,
                "private_key": f"-----BEGIN PRIVATE KEY-----\nMIIEv{pem_body}\n-----END PRIVATE KEY-----\n",
                "client_email": email,
            }
        )
        p.append(Plant("gcp-service-account-json", f"credentials {sa}", (key_id, pem_body, email)))
        npm = self.draw(36)
        p.append(Plant("npm-token", f"//registry.npmjs.org/:_authToken=npm_{npm}", (npm,)))
        npm2 = self.draw(36)
        p.append(Plant("npm-token-bare", f"publish npm_{npm2} done", (npm2,)))
        pypi = self.draw(70, URLSAFE)
        p.append(Plant("pypi-token", f"twine upload -u __token__ pypi-AgEIcHlwaS5vcmc{pypi}", (pypi[:40],)))
        glpat = self.draw(20, URLSAFE)
        p.append(Plant("gitlab-token", f"mirror glpat-{glpat} set", (glpat,)))
        dapi = self.draw(32, HEX)
        p.append(Plant("databricks-token", f"workspace dapi{dapi}", (dapi,)))
        stripe = self.draw(24)
        p.append(Plant("stripe-key", f"billing sk_{'live'}_{stripe}", (stripe,)))
        grid = f"{self.draw(22, URLSAFE)}.{self.draw(43, URLSAFE)}"
        p.append(Plant("sendgrid-key", f"mail SG.{grid}", (grid,)))
        grafana = f"{self.draw(32)}_{self.draw(8, HEX)}"
        p.append(Plant("grafana-token", f"dash glsa_{grafana}", (grafana,)))
        azure_ad = f"{self.draw(3)}{self.rng.randint(0, 9)}Q~{self.draw(34, ALNUM + '~.-')}"
        p.append(Plant("azure-ad-secret", f"sp secret {azure_ad} set", (azure_ad[5:],)))
        p += self._jwts() + self._headers() + self._key_names() + self._addresses()
        return p

    def _jwts(self) -> list[Plant]:
        header = self.b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        out = []
        for form in ("url", "bare"):
            payload = self.b64url(json.dumps({"sub": self.word(10), "exp": self.rng.randint(1, 1 << 31)}).encode())
            signature = self.b64url(bytes(self.rng.randrange(256) for _ in range(32)))
            token = f"{header}.{payload}.{signature}"
            text = (
                f"Unauthorized for url: https://hub.acme-ml.internal/api/session?access_token={token}"
                if form == "url"
                else f"session {token} expired"
            )
            out.append(Plant(f"jwt-{form}", text, (payload, signature)))
        return out

    def _headers(self) -> list[Plant]:
        user, password = self.word(8), self.draw(16)
        basic = base64.b64encode(f"{user}:{password}".encode()).decode()
        bearer, token, api, cookie = self.draw(40, URLSAFE), self.draw(40, HEX), self.draw(32), self.draw(32)
        return [
            Plant("authorization-basic", f"Authorization: Basic {basic}", (basic,)),
            Plant("authorization-bearer", f"Authorization: Bearer {bearer}", (bearer,)),
            Plant("authorization-token", f"Authorization: Token {token}", (token,)),
            Plant("x-api-key-header", f"x-api-key: {api}", (api,)),
            Plant("cookie-header", f"Cookie: session={cookie}", (cookie,)),
            Plant("curl-user", f"curl -u {user}:{password} https://ckpt.internal/x", (password,)),
        ]

    def _key_names(self) -> list[Plant]:
        out = []
        for kind, template in (
            ("cli-api-key", "python3 -m sglang.launch_server --model-path /models/dsv4 --api-key {}"),
            ("cli-token", "harness --token {} --retries 3"),
            ("cli-password", "mysql-sync --password={}"),
            ("db-password", "db_password={}"),
            ("trace-token", "trace_token={}"),
            ("secret-key", "secret_key: '{}'"),
            ("wandb-api-key", "WANDB_API_KEY={}"),
            ("client-secret-json", '"client_secret": "{}"'),
            ("x-amz-signature", "s3://pdld-ckpt/m.tar?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature={}"),
            ("high-entropy-unnamed", "restore_blob={}"),
            ("server-args-api-key", "server_args=ServerArgs(model_path='/models/dsv4', api_key='{}', tp_size=8)"),
        ):
            value = (
                self.draw(40, HEX)
                if kind in ("wandb-api-key", "x-amz-signature")
                else self.draw(24 if "high" not in kind else 44)
            )
            out.append(Plant(kind, template.format(value), (value,)))
        password = self.draw(14)
        out.append(
            Plant(
                "url-credentials",
                f"https://svc-loader:{password}@node1.cluster.corp.example/ckpt",
                (password, "node1.cluster.corp.example"),
            )
        )
        redis = self.draw(14)
        out.append(
            Plant("url-password-only", f"cache redis://:{redis}@cache-7.internal:6379/0", (redis, "cache-7.internal"))
        )
        return out

    def _addresses(self) -> list[Plant]:
        r = self.rng
        v4 = f"10.{r.randint(16, 250)}.{r.randint(1, 250)}.{r.randint(2, 250)}"
        link = "fe80::" + ":".join(f"{r.randint(4096, 65535):x}" for _ in range(4))
        doc = f"2001:db8:{r.randint(4096, 65535):x}::{r.randint(16, 255):x}"
        full = ":".join(f"{r.randint(4096, 65535):x}" for _ in range(8))
        mapped = f"::ffff:10.{r.randint(16, 250)}.{r.randint(1, 250)}.{r.randint(2, 250)}"
        user = self.word(7)
        node = f"pdld-{self.word(4)}-{r.randint(10, 99)}"
        pod = f"sglang-prefill-{self.draw(9, K8S)}-{self.draw(5, K8S)}"
        svc = f"sglang-decode-{self.word(3)}.llm-serving.svc"
        fqdn = f"lb.{self.word(3)}1.acme.example"
        email = f"{self.word(5)}.{self.word(8)}@corp.example"
        return [
            Plant("ipv4", f"peer {v4} up", (v4,)),
            Plant("ipv6-link-local", f"[rdma0 gid {link}]", (link,)),
            Plant("ipv6-with-port", f'INFO:     {doc}:41000 - "GET /health HTTP/1.1" 200 OK', (doc,)),
            Plant("ipv6-full", f"bind {full}", (full,)),
            Plant("ipv4-mapped-ipv6", f"client {mapped}", (mapped,)),
            Plant("email", f"owner={email}", (email, email.split("@")[0])),
            Plant("fqdn-unlisted-suffix", f"lb https://{fqdn}:8000/generate", (fqdn,)),
            Plant("hostname-context", f"hostname={node}", (node,)),
            Plant("k8s-pod", f"peer_pod={pod}", (pod,)),
            Plant("k8s-service", f"upstream={svc}:30001", (svc,)),
            Plant("home-path", f"cache at /home/{user}/.cache/huggingface", (f"/home/{user}",)),
            Plant("macos-home-path", f"copied from /Users/{user}x/ckpt", (f"/Users/{user}x",)),
        ]

    def pem_block(self) -> tuple[list[str], Plant]:
        lines = [self.draw(64, B64), self.draw(20, B64) + "=="]
        block = ["-----BEGIN OPENSSH PRIVATE KEY-----", *lines]
        return block, Plant("pem-multiline", "\n".join(block), tuple(line.rstrip("=") for line in lines))

    def node_name(self) -> str:
        return f"{self.word(3)}{self.rng.randint(1, 9)}-r{self.rng.randint(10, 99)}-gpu{self.rng.randint(10, 99)}"

    # ------------------------------------------------------------ bare token shapes

    def shapes(self) -> list[Plant]:
        """One token of each shape the secret scanners' rule sets define that an LLM-serving log may
        hold (gitleaks' config/gitleaks.toml, trufflehog's pkg/detectors), bare: no keyword near.
        The needles are the random parts."""
        hexes, url, b64, upper = HEX, URLSAFE, B64, string.ascii_uppercase + string.digits
        made: list[tuple[str, str, str]] = []  # (kind, prefix, random part) or a part with a fixed tail

        def add(kind: str, prefix: str, body: str, tail: str = "") -> None:
            made.append((kind, prefix + body + tail, body))

        add("github-classic", "ghp_", self.draw(36))
        add("github-oauth", "gho_", self.draw(36))
        add("github-user-to-server", "ghu_", self.draw(36))
        add("github-server-to-server", "ghs_", self.draw(36))
        add("github-refresh", "ghr_", self.draw(36))
        add("github-fine-grained", "github_pat_", self.draw(22) + "_" + self.draw(59))
        add("gitlab-pat", "glpat-", self.draw(20, url))
        add("gitlab-runner", "glrt-", self.draw(20, url))
        add("gitlab-deploy", "gldt-", self.draw(20, url))
        add("gitlab-runner-registration", "GR1348941", self.draw(20, url))
        add("gitlab-pipeline-trigger", "glptt-", self.draw(40, hexes))
        add("huggingface", "hf_", self.draw(34, string.ascii_letters))
        add("huggingface-org", "api_org_", self.draw(34, string.ascii_letters))
        add("aws-access-key-id", "AKIA", self.draw(16, BASE32))
        add("aws-session-key-id", "ASIA", self.draw(16, BASE32))
        add("aws-bedrock", "ABSK", self.draw(132, b64))
        add("openai-project", "sk-proj-", self.draw(58, url), "T3BlbkFJ" + self.draw(58, url))
        add("openai-service-account", "sk-svcacct-", self.draw(58, url), "T3BlbkFJ" + self.draw(58, url))
        add("openai-legacy", "sk-", self.draw(20), "T3BlbkFJ" + self.draw(20))
        add("openrouter", "sk-or-v1-", self.draw(64, hexes))
        add("deepseek", "sk-", self.draw(32, string.ascii_lowercase + string.digits))
        add("anthropic", "sk-ant-api03-", self.draw(93, url), "AA")
        add("anthropic-admin", "sk-ant-admin01-", self.draw(93, url), "AA")
        add("slack-bot", "xoxb-", f"{self.draw(12, string.digits)}-{self.draw(13, string.digits)}-{self.draw(24)}")
        add(
            "slack-user",
            "xoxp-",
            f"{self.draw(12, string.digits)}-{self.draw(12, string.digits)}-{self.draw(32, hexes)}",
        )
        add("slack-app", "xapp-1-", f"{self.draw(11, upper)}-{self.draw(64, hexes)}")
        add(
            "slack-webhook",
            "https://hooks.slack.com/services/",
            f"T{self.draw(10, BASE32)}/B{self.draw(10, BASE32)}/{self.draw(24)}",
        )
        add("google-api-key", "AIza", self.draw(35, url))
        add("google-oauth-access", "ya29.", self.draw(60, url))
        add("google-oauth-client-secret", "GOCSPX-", self.draw(28, url))
        add("google-oauth-refresh", "1//0", self.draw(60, url))
        add("npm", "npm_", self.draw(36))
        add("pypi", "pypi-AgEIcHlwaS5vcmc", self.draw(70, url))
        add("stripe-live", "sk_live_", self.draw(24))
        add("stripe-restricted", "rk_live_", self.draw(24))
        add("sendgrid", "SG.", f"{self.draw(22, url)}.{self.draw(43, url)}")
        add("databricks", "dapi", self.draw(32, hexes))
        add("grafana-service-account", "glsa_", f"{self.draw(32)}_{self.draw(8, hexes)}")
        add("grafana-cloud", "glc_", self.draw(40, b64))
        add("vault-service", "hvs.", self.draw(95, url))
        add("vault-batch", "hvb.", self.draw(140, url))
        add("perplexity", "pplx-", self.draw(48))
        add("digitalocean-pat", "dop_v1_", self.draw(64, hexes))
        add("digitalocean-refresh", "dor_v1_", self.draw(64, hexes))
        add("age", "AGE-SECRET-KEY-1", self.draw(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"))
        add("openshift", "sha256~", self.draw(43, url))
        add("sentry-user", "sntryu_", self.draw(64, hexes))
        add("pulumi", "pul-", self.draw(40, hexes))
        add("postman", "PMAK-", f"{self.draw(24, hexes)}-{self.draw(34, hexes)}")
        add("groq", "gsk_", self.draw(52))
        add("xai", "xai-", self.draw(80))
        add("langsmith-personal", "lsv2_pt_", f"{self.draw(32, hexes)}_{self.draw(10, hexes)}")
        add("langsmith-service", "lsv2_sk_", f"{self.draw(32, hexes)}_{self.draw(10, hexes)}")
        add("nvidia-nim", "nvapi-", self.draw(64, url))
        add("replicate", "r8_", self.draw(37))
        add("doppler", "dp.pt.", self.draw(43))
        add("shopify", "shpat_", self.draw(32, hexes))
        add("linear", "lin_api_", self.draw(40))
        add("notion", "ntn_", self.draw(11, string.digits) + self.draw(35))
        add("prefect", "pnu_", self.draw(36))
        add("rubygems", "rubygems_", self.draw(48, hexes))
        add("planetscale", "pscale_pw_", self.draw(43, url))
        add("heroku", "HRKU-AA", self.draw(58, url))
        add("flyio", "fo1_", self.draw(43, url))
        add("sendinblue", "xkeysib-", f"{self.draw(64, hexes)}-{self.draw(16)}")
        add("artifactory", "AKCp", self.draw(69))
        add("alibaba", "LTAI", self.draw(20))
        add(
            "dynatrace",
            "dt0c01.",
            f"{self.draw(24, upper)}.{self.draw(64, upper)}",
        )
        add("new-relic-user", "NRAK-", self.draw(27, upper))
        add("azure-ad-client-secret", f"{self.draw(3)}{self.rng.randint(0, 9)}Q~", self.draw(34, ALNUM + "~.-"))
        header = self.b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        payload = self.b64url(json.dumps({"sub": self.word(10), "exp": self.rng.randint(1, 1 << 31)}).encode())
        made.append(
            ("jwt", f"{header}.{payload}.{self.b64url(bytes(self.rng.randrange(256) for _ in range(32)))}", payload)
        )
        return [Plant(kind, text, (body if len(body) < 24 else body[:24],)) for kind, text, body in made]

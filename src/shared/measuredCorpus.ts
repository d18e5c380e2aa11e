/** Written by tools/benchmarks/measure.ts with corpus/snapshot.json: where the shipped corpus was measured from. No imports: the web build compiles this file too. */
export const MEASURED_CORPUS = {
  "readOn": "2026-11-27",
  "windowFrom": "2025-08-01",
  "windowTo": "2026-07-01",
  "repositories": [
    "clap-rs/clap",
    "elixir-lang/elixir",
    "eslint/eslint",
    "expressjs/express",
    "fastapi/fastapi",
    "fastify/fastify",
    "gin-gonic/gin",
    "grafana/k6",
    "hyperium/hyper",
    "jupyterlab/jupyterlab",
    "nodejs/undici",
    "open-telemetry/opentelemetry-js",
    "phoenixframework/phoenix",
    "pnpm/pnpm",
    "prettier/prettier",
    "prometheus/prometheus",
    "psf/black",
    "psf/requests",
    "pydantic/pydantic",
    "pytest-dev/pytest",
    "rollup/rollup",
    "rust-lang/rustlings",
    "spring-projects/spring-boot",
    "square/okhttp",
    "sveltejs/svelte",
    "tokio-rs/axum",
    "tokio-rs/tokio",
    "vitejs/vite"
  ],
  "leftOut": [
    {
      "repository": "date-fns/date-fns",
      "reason": "not active"
    },
    {
      "repository": "encode/httpx",
      "reason": "not active"
    },
    {
      "repository": "laravel/framework",
      "reason": "more than 60 PR authors in a month"
    },
    {
      "repository": "pallets/flask",
      "reason": "not active"
    },
    {
      "repository": "rails/rails",
      "reason": "more than 60 PR authors in a month"
    },
    {
      "repository": "serde-rs/serde",
      "reason": "not active"
    },
    {
      "repository": "spf13/cobra",
      "reason": "not active"
    }
  ]
} as const;

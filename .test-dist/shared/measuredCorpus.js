const MEASURED_CORPUS = {
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
    "laravel/framework",
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
    "rails/rails",
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
    "date-fns/date-fns",
    "encode/httpx",
    "pallets/flask",
    "serde-rs/serde",
    "spf13/cobra"
  ]
};
export {
  MEASURED_CORPUS
};

#!/bin/sh
# Runs `docker compose` on this stack with each half bundled or external:
#   DATABASE_URL set -> no bundled database, nothing waits for it  (adds deploy/external-database.yaml)
#   S3_ENDPOINT set  -> no bundled object store and no bucket job  (adds deploy/external-object-store.yaml)
#   BI_PORT set      -> PostgreSQL for BI tools through Traefik (TLS) on BI_PORT (adds deploy/bi.yaml)
#   profile cube     -> the full Cube's REST and SQL APIs through Traefik (TLS) on CUBE_PORT and
#                       CUBE_SQL_PORT (adds deploy/cube.yaml); from --profile or COMPOSE_PROFILES
# A variable is set when it has a non-empty value in the environment or, failing that, in the env
# file (.env next to compose.yaml, or the one named by --env-file): the same precedence compose uses
# to fill in compose.yaml. Every argument goes to `docker compose` unchanged:
#   deploy/compose.sh up -d
#   deploy/compose.sh run --rm migrate
#   deploy/compose.sh --env-file prod.env logs -f server
# `deploy/compose.sh files` prints the COMPOSE_FILE line that makes plain `docker compose` choose
# the same files; put it in .env to use `docker compose` directly.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
env_file="$root/.env"

# Compose's --env-file is a global option: it comes before the subcommand.
# So is --profile, which the cube profile needs to know (deploy/cube.yaml below).
previous=""
command=""
profiles=""
for arg in "$@"; do
  case "$arg" in
    --env-file=*) env_file=${arg#--env-file=} ;;
    --profile=*) profiles="$profiles ${arg#--profile=}" ;;
    -*) ;;
    *)
      if [ "$previous" = "--env-file" ]; then env_file=$arg
      elif [ "$previous" = "--profile" ]; then profiles="$profiles $arg"
      else command=$arg; break; fi ;;
  esac
  previous=$arg
done

# The value of $1 in the env file (last assignment wins), reduced to "" when it is empty, quoted
# empty, or only a comment. Only emptiness matters here, so quoting details do not.
from_env_file() {
  [ -f "$env_file" ] || return 0
  sed -n "s/^[[:space:]]*\(export[[:space:]][[:space:]]*\)\{0,1\}$1[[:space:]]*=[[:space:]]*//p" "$env_file" \
    | tail -n 1 \
    | sed -e 's/^#.*//' -e 's/^""[[:space:]]*\(#.*\)\{0,1\}$//' -e "s/^''[[:space:]]*\(#.*\)\{0,1\}\$//" -e 's/[[:space:]]*$//'
}

# Non-empty value of $1: the environment wins when it defines the variable at all.
is_set() {
  if eval "[ \"\${$1+defined}\" = defined ]"; then
    eval "[ -n \"\${$1}\" ]"
  else
    [ -n "$(from_env_file "$1")" ]
  fi
}

files="compose.yaml"
database=bundled
object_store=bundled
if is_set DATABASE_URL; then
  files="$files deploy/external-database.yaml"
  database="external (DATABASE_URL)"
fi
if is_set S3_ENDPOINT; then
  files="$files deploy/external-object-store.yaml"
  object_store="external (S3_ENDPOINT)"
fi
bi=off
if is_set BI_PORT; then
  files="$files deploy/bi.yaml"
  bi="on (BI_PORT)"
fi

# The full Cube (profile cube) is reached through Traefik only: its ports are published there.
if [ "${COMPOSE_PROFILES+defined}" = defined ]; then
  profiles="$profiles $(echo "$COMPOSE_PROFILES" | tr ',' ' ')"
else
  profiles="$profiles $(from_env_file COMPOSE_PROFILES | tr -d "\"'" | tr ',' ' ')"
fi
cube=off
case " $profiles " in
  *" cube "*|*" * "*)
    files="$files deploy/cube.yaml"
    cube="on (profile cube)" ;;
esac

if [ "$command" = "files" ]; then
  echo "COMPOSE_FILE=$(echo "$files" | tr ' ' ':')"
  exit 0
fi

echo "delivery-analytics: database $database, object store $object_store, BI access $bi, full Cube $cube" >&2
# Prepend `-f <file>` for each file, keeping their order (compose.yaml first: it sets the project
# directory, so .env and ./traefik are found next to it).
reversed=""
for file in $files; do reversed="$file $reversed"; done
for file in $reversed; do set -- -f "$root/$file" "$@"; done
exec docker compose "$@"

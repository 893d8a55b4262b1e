#!/usr/bin/env bash
# A production-shaped verity cluster on one machine, without Docker (issue 40):
#   Temporal server on PostgreSQL (SQL visibility), three Elasticsearch nodes with security on,
#   N `verity worker` processes, each in its own network namespace on a private bridge.
# Usage: infra/cluster/cluster.sh up|status|down [--purge]   (npm run infra:cluster -- …)
# Needs root (ip netns, runuser). Ports never collide with the single node (9200) or the dev server (7233).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="$REPO/.verity/cluster"                               # built binaries (kept across down)
STATE="${VERITY_CLUSTER_STATE:-/var/lib/verity/cluster}"     # data: service users must traverse it
WORKERS="${VERITY_CLUSTER_WORKERS:-3}"
ES_HEAP_MB="${VERITY_CLUSTER_ES_HEAP_MB:-384}"
ES_HOME="/var/lib/verity/elasticsearch-8.19.21/elasticsearch-8.19.21"
ES_USER=verity-es
ES_PASSWORD="${VERITY_CLUSTER_ES_PASSWORD:-verity-cluster}"
TEMPORAL_VERSION=1.27.2
PG_PORT=55432
PG_BIN=/usr/lib/postgresql/15/bin
TEMPORAL_PORT=7333
BRIDGE=vcbr0
HOST_IP=10.77.0.1
SUBNET_BITS=24
NS_PREFIX=vcw
export ES_JAVA_HOME="${ES_JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"

log() { echo "cluster: $*" >&2; }
es_http_port() { echo $((9400 + $1)); }
es_transport_port() { echo $((9410 + $1)); }
worker_ip() { echo "10.77.0.$((10 + $1))"; }

build_temporal() {
  mkdir -p "$CACHE/bin"
  if [[ -x "$CACHE/bin/temporal-server" && -x "$CACHE/bin/temporal-sql-tool" ]]; then return; fi
  log "building go.temporal.io/server@v$TEMPORAL_VERSION through the Go module proxy (nice 19; minutes)"
  local started=$SECONDS
  GOBIN="$CACHE/bin" nice -n 19 go install "go.temporal.io/server/cmd/server@v$TEMPORAL_VERSION"
  GOBIN="$CACHE/bin" nice -n 19 go install "go.temporal.io/server/cmd/tools/sql@v$TEMPORAL_VERSION"
  mv "$CACHE/bin/server" "$CACHE/bin/temporal-server"
  mv "$CACHE/bin/sql" "$CACHE/bin/temporal-sql-tool"
  log "built in $((SECONDS - started)) s"
}

# The schema files ship in the server module; kept beside the binaries so a cached build needs no module cache.
schema_dir() {
  local cached="$CACHE/schema/postgresql/v12"
  if [[ ! -d "$cached" ]]; then
    local module
    module=$(GOFLAGS=-mod=mod go mod download -json "go.temporal.io/server@v$TEMPORAL_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
    mkdir -p "$CACHE/schema/postgresql"
    cp -r "$module/schema/postgresql/v12" "$cached"
  fi
  echo "$cached"
}

bridge_up() {
  ip link show "$BRIDGE" >/dev/null 2>&1 && return
  ip link add "$BRIDGE" type bridge
  ip addr add "$HOST_IP/$SUBNET_BITS" dev "$BRIDGE"
  ip link set "$BRIDGE" up
}

pg_up() {
  mkdir -p "$STATE/pg-run"; chown postgres: "$STATE/pg-run"
  if [[ ! -f "$STATE/pg-data/PG_VERSION" ]]; then
    mkdir -p "$STATE/pg-data"; chown postgres: "$STATE/pg-data"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$STATE/pg-data" -U postgres --auth=trust >/dev/null
    cat >>"$STATE/pg-data/postgresql.conf" <<EOF
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$STATE/pg-run'
shared_buffers = 64MB
max_connections = 100
EOF
  fi
  if ! runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$STATE/pg-data" status >/dev/null 2>&1; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$STATE/pg-data" -l "$STATE/pg-run/postgres.log" -w start >/dev/null
  fi
  local psql=("$PG_BIN/psql" -h "$STATE/pg-run" -p "$PG_PORT" -U postgres -qtA)
  if [[ -z "$(runuser -u postgres -- "${psql[@]}" -c "select 1 from pg_roles where rolname='temporal'")" ]]; then
    runuser -u postgres -- "${psql[@]}" -c "create role temporal login password 'temporal' createdb"
    for db in temporal temporal_visibility; do
      runuser -u postgres -- "${psql[@]}" -c "create database $db owner temporal"
    done
  fi
  if [[ ! -f "$STATE/temporal-schema.done" ]]; then
    local tool=("$CACHE/bin/temporal-sql-tool" --plugin postgres12 --ep 127.0.0.1 -p "$PG_PORT" -u temporal --pw temporal)
    "${tool[@]}" --db temporal setup-schema -v 0.0 >/dev/null 2>>"$STATE/schema.log"
    "${tool[@]}" --db temporal update-schema -d "$(schema_dir)/temporal/versioned" >/dev/null 2>>"$STATE/schema.log"
    "${tool[@]}" --db temporal_visibility setup-schema -v 0.0 >/dev/null 2>>"$STATE/schema.log"
    "${tool[@]}" --db temporal_visibility update-schema -d "$(schema_dir)/visibility/versioned" >/dev/null 2>>"$STATE/schema.log"
    touch "$STATE/temporal-schema.done"
    log "postgresql: temporal schemas set up by temporal-sql-tool"
  fi
}

temporal_config() {
  local dir="$STATE/temporal/config"
  mkdir -p "$dir"
  echo "{}" >"$STATE/temporal/dynamicconfig.yaml"
  cat >"$dir/development.yaml" <<EOF
log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:
      sql:
        pluginName: postgres12
        databaseName: temporal
        connectAddr: "127.0.0.1:$PG_PORT"
        connectProtocol: tcp
        user: temporal
        password: temporal
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: 1h
    visibility:
      sql:
        pluginName: postgres12
        databaseName: temporal_visibility
        connectAddr: "127.0.0.1:$PG_PORT"
        connectProtocol: tcp
        user: temporal
        password: temporal
        maxConns: 10
        maxIdleConns: 10
        maxConnLifetime: 1h
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
services:
  frontend:
    rpc: { grpcPort: $TEMPORAL_PORT, membershipPort: 6933, bindOnIP: 0.0.0.0, httpPort: 7343 }
  matching:
    rpc: { grpcPort: 7335, membershipPort: 6935, bindOnIP: 127.0.0.1 }
  history:
    rpc: { grpcPort: 7334, membershipPort: 6934, bindOnIP: 127.0.0.1 }
  worker:
    rpc: { grpcPort: 7339, membershipPort: 6939, bindOnIP: 127.0.0.1 }
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "127.0.0.1:$TEMPORAL_PORT"
      httpAddress: "127.0.0.1:7343"
dcRedirectionPolicy:
  policy: noop
archival:
  history: { state: disabled }
  visibility: { state: disabled }
namespaceDefaults:
  archival:
    history: { state: disabled }
    visibility: { state: disabled }
dynamicConfigClient:
  filepath: "$STATE/temporal/dynamicconfig.yaml"
  pollInterval: 10s
EOF
}

temporal_up() {
  temporal_config
  if [[ -f "$STATE/temporal/server.pid" ]] && kill -0 "$(cat "$STATE/temporal/server.pid")" 2>/dev/null; then return; fi
  # The process writes its own pid: $! would be setsid's, which forks, and down would miss the server.
  # All of the background job's output goes to the log: a caller reading this script's stdout
  # (execFile) would otherwise wait for the server to end.
  (cd "$STATE/temporal" && exec setsid nohup bash -c 'echo $$ >server.pid; exec "$0" --root "$1" --config config --env development --allow-no-auth start' \
    "$CACHE/bin/temporal-server" "$STATE/temporal") >"$STATE/temporal/server.log" 2>&1 </dev/null &
  local cli="$REPO/.verity/bin/temporal"
  for _ in $(seq 1 60); do
    if "$cli" operator cluster health --address "127.0.0.1:$TEMPORAL_PORT" >/dev/null 2>&1; then break; fi
    sleep 1
  done
  if ! "$cli" operator namespace describe --address "127.0.0.1:$TEMPORAL_PORT" -n default >/dev/null 2>&1; then
    "$cli" operator namespace create --address "127.0.0.1:$TEMPORAL_PORT" -n default --retention 72h >/dev/null
  fi
  log "temporal: server on PostgreSQL at 127.0.0.1:$TEMPORAL_PORT (and $HOST_IP:$TEMPORAL_PORT for worker machines)"
}

es_node_up() {
  local n=$1 dir="$STATE/es/node-$1"
  if [[ ! -d "$dir/config" ]]; then
    mkdir -p "$dir/data" "$dir/logs"
    cp -r "$ES_HOME/config" "$dir/config"
    cat >"$dir/config/elasticsearch.yml" <<EOF
cluster.name: verity-cluster
node.name: node-$n
path.data: $dir/data
path.logs: $dir/logs
http.host: [127.0.0.1, $HOST_IP]
http.port: $(es_http_port "$n")
transport.host: 127.0.0.1
transport.port: $(es_transport_port "$n")
discovery.seed_hosts: [127.0.0.1:$(es_transport_port 1), 127.0.0.1:$(es_transport_port 2), 127.0.0.1:$(es_transport_port 3)]
cluster.initial_master_nodes: [node-1, node-2, node-3]
xpack.security.enabled: true
xpack.security.http.ssl.enabled: false
xpack.security.transport.ssl.enabled: false
xpack.ml.enabled: false
action.destructive_requires_name: true
EOF
    ES_PATH_CONF="$dir/config" "$ES_HOME/bin/elasticsearch-keystore" create >/dev/null 2>&1 || true
    printf '%s' "$ES_PASSWORD" | ES_PATH_CONF="$dir/config" "$ES_HOME/bin/elasticsearch-keystore" add -x -f bootstrap.password >/dev/null
    chown -R "$ES_USER:" "$dir"
  fi
  if [[ -f "$dir/es.pid" ]] && kill -0 "$(cat "$dir/es.pid")" 2>/dev/null; then return; fi
  runuser -u "$ES_USER" -- env ES_JAVA_HOME="$ES_JAVA_HOME" ES_PATH_CONF="$dir/config" ES_JAVA_OPTS="-Xms${ES_HEAP_MB}m -Xmx${ES_HEAP_MB}m" \
    "$ES_HOME/bin/elasticsearch" -d -p "$dir/es.pid" >/dev/null
}

es_up() {
  id -u "$ES_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER"
  mkdir -p "$STATE/es"; chmod 755 "$STATE" "$STATE/es"
  for n in 1 2 3; do es_node_up "$n"; done
  for _ in $(seq 1 120); do
    local status
    status=$(curl -s -u "elastic:$ES_PASSWORD" "http://127.0.0.1:$(es_http_port 1)/_cluster/health" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p' || true)
    local nodes
    nodes=$(curl -s -u "elastic:$ES_PASSWORD" "http://127.0.0.1:$(es_http_port 1)/_cat/nodes" | wc -l || true)
    if [[ "$status" == green && "$nodes" == 3 ]]; then break; fi
    sleep 2
  done
  log "elasticsearch: three nodes at 127.0.0.1:$(es_http_port 1)-$(es_http_port 3) (user elastic), health ${status:-unknown}"
}

worker_env() {
  # One ES_URL for all: the task queue is derived from the configuration, ES URL included, so
  # workers on different URLs would not share work. node-1 is the coordinating node.
  local n=$1
  echo "TEMPORAL_ADDRESS=$HOST_IP:$TEMPORAL_PORT ES_URL=http://$HOST_IP:$(es_http_port 1) ES_USERNAME=elastic ES_PASSWORD=$ES_PASSWORD VERITY_ES_REPLICAS=${VERITY_ES_REPLICAS:-1} VERITY_DATA_DIR=$STATE/workers/w$n"
}

worker_up() {
  local n=$1 ns="$NS_PREFIX$1"
  if ! ip netns list | grep -qw "$ns"; then
    ip netns add "$ns"
    ip link add "$ns-h" type veth peer name "$ns-n"
    ip link set "$ns-h" master "$BRIDGE" up
    ip link set "$ns-n" netns "$ns"
    ip -n "$ns" addr add "$(worker_ip "$n")/$SUBNET_BITS" dev "$ns-n"
    ip -n "$ns" link set "$ns-n" up
    ip -n "$ns" link set lo up
    ip -n "$ns" route add default via "$HOST_IP"
  fi
  local dir="$STATE/workers/w$n"
  mkdir -p "$dir"
  if [[ -f "$dir/worker.pid" ]] && kill -0 "$(cat "$dir/worker.pid")" 2>/dev/null; then return; fi
  # shellcheck disable=SC2046
  # A machine's service manager restarts its worker (e.g. while Temporal is still starting); bounded.
  (cd "$REPO" && exec setsid nohup ip netns exec "$ns" env $(worker_env "$n") ${VERITY_CLUSTER_WORKER_ENV:-} \
    bash -c 'echo $$ >"$0"; for _ in $(seq 1 500); do node bin/verity.js worker; sleep 5; done' "$dir/worker.pid") >"$dir/worker.log" 2>&1 </dev/null &
}

register() {
  # verity's own provisioning against the cluster: search attributes on the namespace.
  (cd "$REPO" && TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT" ES_URL="http://127.0.0.1:$(es_http_port 1)" ES_USERNAME=elastic \
    ES_PASSWORD="$ES_PASSWORD" node bin/verity.js infra up >/dev/null 2>"$STATE/infra-up.log") ||
    log "verity infra up against the cluster failed: see $STATE/infra-up.log"
}

up() {
  [[ $(id -u) == 0 ]] || { log "needs root (ip netns, runuser)"; exit 1; }
  build_temporal
  mkdir -p "$STATE"; chmod 755 "$STATE"
  bridge_up
  pg_up
  temporal_up
  es_up
  register
  for n in $(seq 1 "$WORKERS"); do worker_up "$n"; done
  log "up: $WORKERS worker machines (${NS_PREFIX}1..${NS_PREFIX}${WORKERS} on $BRIDGE)"
  status
}

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null && echo "up (pid $(cat "$1"))" || echo down; }

status() {
  echo "postgresql   127.0.0.1:$PG_PORT  $(runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$STATE/pg-data" status >/dev/null 2>&1 && echo up || echo down)"
  echo "temporal     127.0.0.1:$TEMPORAL_PORT  $(alive "$STATE/temporal/server.pid")"
  for n in 1 2 3; do echo "es node-$n    127.0.0.1:$(es_http_port "$n")  $(alive "$STATE/es/node-$n/es.pid")"; done
  echo "es health    $(curl -s -m 3 -u "elastic:$ES_PASSWORD" "http://127.0.0.1:$(es_http_port 1)/_cluster/health" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')"
  for n in $(seq 1 "$WORKERS"); do
    echo "worker w$n    $NS_PREFIX$n $(worker_ip "$n")  $(alive "$STATE/workers/w$n/worker.pid")"
  done
}

stop_pidfile() {
  local file=$1
  [[ -f "$file" ]] || return 0
  local pid; pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

down() {
  local n
  for dir in "$STATE"/workers/w*; do [[ -d "$dir" ]] && stop_pidfile "$dir/worker.pid"; done
  for ns in $(ip netns list | awk '{print $1}' | grep "^$NS_PREFIX[0-9]*$" || true); do
    ip link del "$ns-h" 2>/dev/null || true
    ip netns del "$ns"
  done
  ip link del "$BRIDGE" 2>/dev/null || true
  stop_pidfile "$STATE/temporal/server.pid"
  for n in 1 2 3; do stop_pidfile "$STATE/es/node-$n/es.pid"; done
  if [[ -f "$STATE/pg-data/PG_VERSION" ]]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$STATE/pg-data" -m fast stop >/dev/null 2>&1 || true
  fi
  if [[ "${1:-}" == --purge ]]; then rm -rf "$STATE"; log "down: data removed ($STATE)"; else log "down (data kept in $STATE; --purge removes it)"; fi
}

case "${1:-}" in
  up) up ;;
  status) status ;;
  down) down "${2:-}" ;;
  step) "$2" "${@:3}" ;;  # one step alone (debugging): bridge_up, pg_up, es_up, worker_up N …
  *) echo "usage: npm run infra:cluster -- up|status|down [--purge]" >&2; exit 2 ;;
esac

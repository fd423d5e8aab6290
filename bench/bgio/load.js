'use strict';
/**
 * One load generator for both servers: two-player element-draft matches, each seat a
 * "device" that plays as a front end would, as fast as it can, for a fixed time.
 *
 *   node load.js --target bgio|service --url http://127.0.0.1:PORT --matches 4
 *       --seconds 8 [--settle 2] --clk-tck 100 --cpu name=PID[,name=PID...]
 *       [--idempotency-keys off] [--device push|poll] [--think MS]
 *
 * bgio: the match is created and both seats joined through the Lobby API (boardgame.io's
 * LobbyClient); each device is boardgame.io's own Client over its SocketIO transport
 * (socket.io-client, websocket only, one connection per device). The server pushes
 * each seat's filtered state after every move; the device sends `draft` when its state
 * says it is active and has not selected. boardgame.io refuses a move made on an older
 * stateID without telling the mover; the device learns it from the next state it is
 * pushed (its selection is not there) and sends the move again.
 *
 * service: the session is created with POST /v1/element-draft/sessions; each device
 * uses undici (one keep-alive connection for its requests, one for its event stream).
 * With --device push (the default) it opens its seat's own stream
 * (GET .../events?seat=n with its seat token), whose every frame carries its view:
 * it POSTs its move on the version it saw with an Idempotency-Key (unless
 * --idempotency-keys off) and its stream's `stream_id` as `Stream-Id` (so the stream
 * does not send back the view the answer already carries; a server before it sends no
 * `stream_id`, and the header is left out); on 409 stale_version it decides again on the problem's
 * `session` (the game as it sees it now); when its move leaves the other seat to
 * select, it waits for the frame that gives it its new hand. It never reads. With
 * --device poll (the device before issue 32's seat streams) it follows the public
 * stream and, once it may act again, GETs its view.
 *
 * --think MS (default 0: as fast as it can): each device waits MS milliseconds between
 * learning it may select and sending its move, as a student looks at a hand before
 * choosing; a move's latency is still counted from its sending.
 *
 * The matches start --settle seconds before the window opens, and new ones start as
 * others finish; only what happens in the window counts: moves sent in it and
 * acknowledged before it closes (for their latency), refusals, requests. CPU is read
 * from /proc/<pid>/stat (utime + stime + cutime + cstime) of every named process and
 * all its descendants when the window opens and when it closes, and so is how the
 * scheduler treated their threads (/proc/<pid>/task/<tid>/schedstat and status: time
 * runnable but waiting for a CPU, voluntary and nonvoluntary context switches), and
 * this generator's own. Prints one JSON object.
 */
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

function args() {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  return out;
}

const opts = args();
const TARGET = opts.target;
const URL_ = opts.url;
const MATCHES = Number(opts.matches || 4);
const SECONDS = Number(opts.seconds || 8);
// matches are already being played when the window opens: no burst of first set-ups
const SETTLE = Number(opts.settle || 2);
const CLK_TCK = Number(opts['clk-tck'] || 100);
// service: send an Idempotency-Key with every move (a front end that retries safely)
const KEYS = (opts['idempotency-keys'] || 'on') === 'on';
// service: push (the seat's own stream carries its view) or poll (public stream + GET)
const DEVICE = opts.device || 'push';
// both: milliseconds a device waits before sending each move (0: none)
const THINK = Number(opts.think || 0);
const pause = () => (THINK > 0 ? new Promise((r) => setTimeout(r, THINK)) : null);
const CPU_ROOTS = (opts.cpu || '')
  .split(',')
  .filter(Boolean)
  .map((kv) => kv.split('='))
  .map(([name, pid]) => ({ name, pid: Number(pid) }));

// ------------------------------------------------------------------ /proc ----------
function stat(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields 14-17 of proc(5): utime, stime, cutime, cstime
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
  } catch {
    return null;
  }
}

/** A process's threads (none once it has gone). */
function tasksOf(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

function descendants(pid) {
  const out = [pid];
  for (const task of tasksOf(pid)) {
    let kids = '';
    try {
      kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const kid of kids.split(' ').filter(Boolean)) out.push(...descendants(Number(kid)));
  }
  return out;
}

/** CPU seconds used so far by each named process tree (children included). */
function cpuNow() {
  const out = {};
  for (const { name, pid } of CPU_ROOTS) {
    out[name] = descendants(pid).reduce((sum, p) => sum + (stat(p) || 0), 0);
  }
  return out;
}

/**
 * How the scheduler has treated a process's threads so far (a thread that ended is no
 * longer counted): seconds spent runnable but waiting for a CPU (schedstat's second
 * field), times they gave up the CPU to wait for something (voluntary context
 * switches: each is a wake-up later) and times they were made to give it up
 * (nonvoluntary).
 */
function scheduled(pid) {
  const out = { waited_s: 0, slept: 0, preempted: 0 };
  for (const task of tasksOf(pid)) {
    try {
      const schedstat = fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8');
      out.waited_s += Number(schedstat.split(' ')[1]) / 1e9;
      const status = fs.readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      out.slept += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]);
      out.preempted += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** scheduled(), summed over every server process tree, and for this generator. */
function schedNow() {
  const server = { waited_s: 0, slept: 0, preempted: 0 };
  for (const { pid } of CPU_ROOTS) {
    for (const p of descendants(pid)) {
      const one = scheduled(p);
      for (const key of Object.keys(server)) server[key] += one[key];
    }
  }
  return { server, generator: scheduled(process.pid) };
}

function loadavg() {
  return Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

// ---------------------------------------------------------------- counters ---------
const stats = {
  accepted: 0, // moves acknowledged in the window
  refused: 0, // moves refused as made on an older state (stale)
  moveRequests: 0, // moves sent (accepted, refused, or in flight at the deadline)
  reads: 0, // service: GET of the seat's view
  streams: 0, // service: event streams opened; bgio: socket connections (each syncs once)
  // states pushed to the devices in the window: service: the streams' update frames;
  // bgio: states with a newer stateID a client was sent
  pushes: 0,
  setupRequests: 0, // creating matches (and joining them, for bgio)
  matchesStarted: 0,
  matchesFinished: 0,
  errors: 0,
  latencies: [], // ms, accepted moves only, from the sending that was accepted
  // ms, accepted moves only, from the first sending of the seat's decision in that round:
  // a move the server dropped or refused as made on an older state, and sent again, is
  // waited for from its first sending, as the student who chose the card waits
  waits: [],
};
let stopping = false;
let opened = Infinity;
let deadline = Infinity;
const inWindow = () => {
  const now = performance.now();
  return now >= opened && now <= deadline;
};
const onStop = new Set();

// BGIO_TRACE=FILE: one JSON line per move counted (when it was sent, in ms since the
// epoch, its latency, who sent it), to see when the slow ones happen, not only how many
const TRACE = process.env.BGIO_TRACE ? [] : null;

function accepted(startedAt, who, firstAt = startedAt) {
  if (!inWindow() || startedAt < opened) return;
  const now = performance.now();
  const ms = now - startedAt;
  stats.accepted += 1;
  stats.latencies.push(ms);
  stats.waits.push(now - firstAt);
  if (TRACE !== null) TRACE.push({ sent: performance.timeOrigin + startedAt, ms, ...who });
}

// ------------------------------------------------------------------- bgio ----------
function bgioTarget() {
  const { Client, LobbyClient } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const { ElementDraft } = require('./game');
  const lobby = new LobbyClient({ server: URL_ });
  const leaks = { initialStateHands: 0, checked: 0 };

  async function create() {
    const { matchID } = await lobby.createMatch('element-draft', { numPlayers: 2 });
    const seats = [];
    for (const playerID of ['0', '1']) {
      const joined = await lobby.joinMatch('element-draft', matchID, {
        playerID,
        playerName: `seat ${playerID}`,
      });
      seats.push(joined.playerCredentials);
    }
    stats.setupRequests += 3;
    return { matchID, seats };
  }

  function play(match, seat) {
    return new Promise((resolve) => {
      const playerID = String(seat);
      const client = Client({
        game: ElementDraft,
        multiplayer: SocketIO({
          server: URL_,
          socketOpts: { forceNew: true, transports: ['websocket'] },
        }),
        matchID: match.matchID,
        playerID,
        credentials: match.seats[seat],
        debug: false,
      });
      let sent = null; // {round, stateID, at, firstAt}
      let dropped = null; // {round, firstAt} of a move the server dropped, to send again
      let thinking = false; // --think: a move is decided and waits to be sent
      let checked = false;
      let result = 'stopped';
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        onStop.delete(finish);
        client.stop(); // notifies the subscriber again, which `done` ignores
        resolve(result);
      };
      onStop.add(finish);
      let pushed = -1; // the newest stateID this client was sent
      client.subscribe((state) => {
        if (done || !state || !state.G || stopping) return;
        if (state._stateID > pushed) {
          pushed = state._stateID;
          if (inWindow()) stats.pushes += 1;
        }
        if (!checked) {
          // does the sync's initialState show the other seat's hand and the cards set
          // aside? (the states pushed later do not: playerView)
          checked = true;
          const init = client.getInitialState();
          const G = init && init.G;
          leaks.checked += 1;
          if (G && G.hands && G.hands[1 - seat].length && G.setAside.length) {
            leaks.initialStateHands += 1;
          }
        }
        if (sent !== null) {
          if (state._stateID <= sent.stateID) return; // nothing new (connection, metadata)
          if (state.G.round > sent.round || state.G.selection !== null) {
            accepted(sent.at, undefined, sent.firstAt);
          } else {
            // superseded: with two seats, a newer state without this move means the
            // server took the other seat's move first and dropped this one
            if (inWindow()) stats.refused += 1;
            dropped = { round: sent.round, firstAt: sent.firstAt };
          }
          sent = null;
        }
        if (state.ctx.gameover !== undefined) {
          result = 'finished';
          finish();
          return;
        }
        if (state.isActive && state.G.selection === null && state.G.hand.length > 0) {
          // the client sends a move on the newest state it holds (its stateID): after
          // --think, that is whatever was pushed meanwhile, as for a student's device
          const send = (now) => {
            const at = performance.now();
            const again = dropped !== null && dropped.round === now.G.round;
            const firstAt = again ? dropped.firstAt : at;
            sent = { round: now.G.round, stateID: now._stateID, at, firstAt };
            dropped = null;
            stats.moveRequests += 1;
            client.moves.draft(now.G.hand[0].z);
          };
          if (THINK <= 0) send(state);
          else if (!thinking) {
            thinking = true;
            setTimeout(() => {
              thinking = false;
              const now = client.getState();
              if (done || stopping || !now || !now.isActive) return;
              if (now.G.selection === null && now.G.hand.length > 0) send(now);
            }, THINK);
          }
        }
      });
      stats.streams += 1;
      client.start();
    });
  }

  return { create, play, report: () => ({ leaks }) };
}

// ---------------------------------------------------------------- service ----------
function serviceTarget() {
  const { Client: Http } = require('undici');
  const base = '/v1/element-draft/sessions';
  const json = { 'content-type': 'application/json' };

  async function call(http, method, path, headers, body) {
    const res = await http.request({
      method,
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : null };
  }

  // one connection for creating sessions (the operator's server, not a device)
  const host = new Http(URL_, { pipelining: 1 });

  async function create() {
    const res = await call(host, 'POST', base, json, { players: 2 });
    stats.setupRequests += 1;
    if (res.status !== 201) throw new Error(`setup ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.session_id, seats: res.body.seats.map((s) => s.seat_token) };
  }

  /** The session's event stream: the latest public block and a way to wait for one. */
  function follow(match, onEnd, seat) {
    const http = new Http(URL_, { pipelining: 1 });
    const waiting = new Set();
    let closed = false;
    const self = {
      latest: null,
      streamId: null, // the seat stream's own id, from its hello
      waitFor: null,
      close: () => {
        closed = true;
        return http.destroy().catch(() => {});
      },
    };
    const seen = (block) => {
      self.latest = block;
      for (const w of waiting) {
        if (w.test(block)) {
          waiting.delete(w);
          w.resolve(block);
        }
      }
    };
    self.waitFor = (test) =>
      new Promise((resolve) => {
        if (self.latest && test(self.latest)) resolve(self.latest);
        else waiting.add({ test, resolve });
      });
    self.release = () => {
      for (const w of waiting) w.resolve(null);
      waiting.clear();
    };
    (async () => {
      stats.streams += 1;
      const own = seat !== undefined;
      const res = await http.request({
        method: 'GET',
        path: own ? `${base}/${match.id}/events?seat=${seat}` : `${base}/${match.id}/events`,
        headers: {
          accept: 'text/event-stream',
          ...(own ? { authorization: `Bearer ${match.seats[seat]}` } : {}),
        },
      });
      if (res.statusCode !== 200) throw new Error(`events ${res.statusCode}`);
      let buf = '';
      for await (const chunk of res.body) {
        buf += chunk.toString('utf8');
        let cut;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          let event = 'message';
          let data = '';
          for (const line of frame.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (event === 'hello') {
            const hello = JSON.parse(data);
            if (typeof hello.stream_id === 'string') self.streamId = hello.stream_id;
            seen(hello);
          } else if (event === 'update') {
            if (inWindow()) stats.pushes += 1;
            seen(JSON.parse(data));
          }
          else if (event === 'end') seen({ ...(self.latest || {}), finished: true, version: Infinity });
        }
      }
    })()
      .catch((err) => {
        if (!stopping && !closed) {
          stats.errors += 1;
          process.stderr.write(`stream: ${err}\n`);
        }
      })
      .finally(() => {
        self.release();
        onEnd();
      });
    return self;
  }

  async function play(match, seat) {
    const http = new Http(URL_, { pipelining: 1 });
    const auth = { authorization: `Bearer ${match.seats[seat]}` };
    const url = `${base}/${match.id}`;
    const push = DEVICE === 'push';
    let stream = null;
    let result = 'stopped';
    const stop = () => {
      if (stream) stream.release();
    };
    const over = (b) => b.finished || (b.outcome && b.outcome.finished);
    onStop.add(stop);
    try {
      stream = follow(match, () => {}, push ? seat : undefined);
      const read = async () => {
        stats.reads += 1;
        const res = await call(http, 'GET', `${url}?seat=${seat}`, auth);
        if (res.status !== 200) throw new Error(`view ${res.status} ${JSON.stringify(res.body)}`);
        return res.body;
      };
      // push: the stream's hello is the seat's view
      let block = push ? await stream.waitFor(() => true) : await read();
      let n = 0;
      let firstAt = null; // the first sending of a move refused since as stale
      while (!stopping && block !== null) {
        if (over(block)) {
          result = 'finished';
          break;
        }
        if (block.to_act.includes(seat)) {
          const card = block.view.you.hand[0].z;
          const thought = pause();
          if (thought !== null) await thought;
          if (stopping) break;
          const at = performance.now();
          if (firstAt === null) firstAt = at;
          stats.moveRequests += 1;
          n += 1;
          const headers = { ...json, ...auth };
          if (KEYS) headers['idempotency-key'] = `${match.id}-${seat}-${n}`;
          if (TRACE !== null) headers['x-request-id'] = `${match.id}-${seat}-${n}`;
          if (push && stream.streamId !== null) headers['stream-id'] = stream.streamId;
          const res = await call(http, 'POST', `${url}/moves`, headers, {
            seat,
            version: block.version,
            move: { type: 'draft', card },
          });
          if (res.status === 200) {
            accepted(at, { id: `${match.id}-${seat}-${n}`, seat }, firstAt);
            firstAt = null;
            block = res.body;
          } else if (res.status === 409 && res.body.code === 'stale_version') {
            if (inWindow()) stats.refused += 1;
            block = res.body.session; // the game as this seat sees it now: no GET
          } else {
            throw new Error(`move ${res.status} ${JSON.stringify(res.body)}`);
          }
        } else {
          firstAt = null; // not this seat's turn any more: its next move is a new decision
          const version = block.version;
          const next = await stream.waitFor(
            (b) => b.version > version && (over(b) || b.to_act.includes(seat)),
          );
          if (next === null || stopping) break;
          if (over(next)) {
            result = 'finished';
            break;
          }
          block = push ? next : await read();
        }
      }
    } finally {
      onStop.delete(stop);
      if (stream) stream.close();
      await http.destroy().catch(() => {});
    }
    return result;
  }

  return { create, play, report: () => ({}), close: () => host.destroy().catch(() => {}) };
}

// ------------------------------------------------------------------- run -----------
function percentile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main() {
  if (TARGET !== 'bgio' && TARGET !== 'service') throw new Error(`unknown target ${TARGET}`);
  const target = TARGET === 'bgio' ? bgioTarget() : serviceTarget();
  const loads = [];
  const begun = performance.now();
  opened = begun + SETTLE * 1000;
  deadline = opened + SECONDS * 1000;
  let cpu0 = null;
  let sched0 = null;
  let own0 = null;
  let counted = null; // the counters as the window opened
  let sampler = null;
  const opening = new Promise((resolve) =>
    setTimeout(() => {
      cpu0 = cpuNow();
      sched0 = schedNow();
      own0 = process.cpuUsage();
      counted = { ...stats };
      loads.push(loadavg());
      sampler = setInterval(() => loads.push(loadavg()), 1000);
      resolve();
    }, SETTLE * 1000),
  );

  async function slot() {
    while (!stopping) {
      let match;
      try {
        match = await target.create();
      } catch (err) {
        if (!stopping) {
          stats.errors += 1;
          process.stderr.write(`create: ${err}\n`);
        }
        return;
      }
      if (stopping) return;
      stats.matchesStarted += 1;
      const results = await Promise.all([0, 1].map((seat) => target.play(match, seat))).catch(
        (err) => {
          if (!stopping) {
            stats.errors += 1;
            process.stderr.write(`play: ${err.stack || err}\n`);
          }
          return ['error'];
        },
      );
      if (results.every((r) => r === 'finished') && inWindow()) stats.matchesFinished += 1;
      if (results.includes('error')) return;
    }
  }

  const slots = Array.from({ length: MATCHES }, () => slot());
  await opening;
  const t0 = performance.now();
  const windowEnd = await new Promise((resolve) =>
    setTimeout(
      () => {
        const end = {
          cpu: cpuNow(),
          sched: schedNow(),
          own: process.cpuUsage(own0),
          t: performance.now(),
        };
        stopping = true;
        for (const stop of [...onStop]) stop();
        resolve(end);
      },
      Math.max(0, deadline - performance.now()),
    ),
  );
  for (const key of ['moveRequests', 'reads', 'streams', 'setupRequests', 'matchesStarted']) {
    stats[key] -= counted[key];
  }
  clearInterval(sampler);
  loads.push(loadavg());
  await Promise.race([Promise.all(slots), new Promise((r) => setTimeout(r, 5000))]);
  if (target.close) await target.close();

  const elapsed = (windowEnd.t - t0) / 1000;
  const cpu = {};
  for (const name of Object.keys(cpu0)) cpu[name] = windowEnd.cpu[name] - cpu0[name];
  const serverCpu = Object.values(cpu).reduce((a, b) => a + b, 0);
  const lat = stats.latencies.sort((a, b) => a - b);
  const waits = stats.waits.sort((a, b) => a - b);
  const perMove = (side, key, scale = 1) => {
    if (!stats.accepted) return null;
    return (scale * (windowEnd.sched[side][key] - sched0[side][key])) / stats.accepted;
  };
  const out = {
    target: TARGET,
    idempotency_keys: TARGET === 'service' ? KEYS : null,
    device: TARGET === 'service' ? DEVICE : null,
    matches: MATCHES,
    seconds: elapsed,
    accepted: stats.accepted,
    moves_per_s: stats.accepted / elapsed,
    p50_ms: percentile(lat, 0.5),
    p99_ms: percentile(lat, 0.99),
    wait_p50_ms: percentile(waits, 0.5),
    wait_p99_ms: percentile(waits, 0.99),
    cpu_s: cpu,
    server_cpu_s: serverCpu,
    cpu_ms_per_move: stats.accepted ? (1000 * serverCpu) / stats.accepted : null,
    moves_per_cpu_s: serverCpu ? stats.accepted / serverCpu : null,
    move_requests: stats.moveRequests,
    reads: stats.reads,
    streams: stats.streams,
    requests_per_move: stats.accepted
      ? (stats.moveRequests + stats.reads + stats.streams) / stats.accepted
      : null,
    pushes_per_move: stats.accepted ? stats.pushes / stats.accepted : null,
    refused: stats.refused,
    refused_per_move: stats.accepted ? stats.refused / stats.accepted : null,
    setup_requests: stats.setupRequests,
    matches_started: stats.matchesStarted,
    matches_finished: stats.matchesFinished,
    errors: stats.errors,
    ...(process.env.BGIO_LATENCIES ? { latencies: lat } : {}),
    load_avg: { min: Math.min(...loads), max: Math.max(...loads), samples: loads },
    generator_cpu_s: (windowEnd.own.user + windowEnd.own.system) / 1e6,
    // the scheduler's side of the latency: waits for a CPU, sleeps (wake-ups), preemptions
    cpu_wait_ms_per_move: perMove('server', 'waited_s', 1000),
    sleeps_per_move: perMove('server', 'slept'),
    preempted_per_move: perMove('server', 'preempted'),
    generator_cpu_wait_ms_per_move: perMove('generator', 'waited_s', 1000),
    generator_sleeps_per_move: perMove('generator', 'slept'),
    ...target.report(),
  };
  if (TRACE !== null) {
    fs.writeFileSync(process.env.BGIO_TRACE, TRACE.map((t) => JSON.stringify(t)).join('\n'));
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(stats.errors && !stats.accepted ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});

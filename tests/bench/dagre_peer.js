// dagre_peer.js: one graph laid out by @dagrejs/dagre, the layout engine of
// Netron, TensorBoard and Model Explorer, for the layout benchmarks
//
// Usage: node dagre_peer.js DAGRE_DIR GRAPH.json   (GRAPH "-": standard input)
//
// DAGRE_DIR is the installed @dagrejs/dagre package (build-aux/dev.sh bench
// installs it and exports it as SL_BENCH_DAGRE_DIR). The graph is
//   {"nodesep": 20, "ranksep": 40,
//    "nodes": [{"width": 120, "height": 36}, ...],
//    "edges": [{"source": 0, "target": 1, "control": false}, ...]}
// with nodes named by their index. dagre gets rankdir TB, the same
// separations as ours, and data edges twice the weight of control edges,
// as ours pulls control edges half as hard on ranks.
//
// The layout runs in a child node whose heap is capped the way a browser
// tab's is: SL_BENCH_DAGRE_HEAP_MB (4096; 0 leaves node's default), cut off
// after SL_BENCH_DAGRE_TIMEOUT seconds (60). Its stack is V8's default, as in
// a browser tab, unless SL_BENCH_DAGRE_STACK_KB says otherwise (it must stay
// below the thread's stack, `ulimit -s`, or node crashes). One line comes out:
//   ok layout_ms=L total_ms=T peak_mib=M   time in dagre.layout() itself, and
//                                          from node's start to the end
//   out-of-memory seconds=S heap_mib=H     node died of a heap limit
//   out-of-stack seconds=S                 dagre.layout() overflowed the stack
//   cut-off seconds=S                      still running when cut off
//   failed REASON                          anything else (a crash, a bad graph)
// The exit status is 0 for all of these and 2 for bad usage.
//
// SPDX-License-Identifier: GPL-3.0-or-later
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

function usage() {
  process.stderr.write('usage: node dagre_peer.js DAGRE_DIR GRAPH.json\n');
  process.exit(2);
}

function envNumber(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '')
    return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

function runLayout(dagreDir, file) {
  let dagre;
  try {
    dagre = require(path.resolve(dagreDir));
  } catch (e) {
    console.log(`failed cannot load @dagrejs/dagre from ${dagreDir}: ${e.message}`);
    process.exit(1);
  }
  const input = JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8'));
  const g = new dagre.graphlib.Graph({ multigraph: true });

  g.setGraph({ rankdir: 'TB', nodesep: input.nodesep, ranksep: input.ranksep });
  g.setDefaultEdgeLabel(() => ({}));
  input.nodes.forEach((node, i) => g.setNode(String(i), { width: node.width, height: node.height }));
  input.edges.forEach((edge, k) => {
    g.setEdge(String(edge.source), String(edge.target),
              { weight: edge.control ? 1 : 2, minlen: 1 }, String(k));
  });

  const start = performance.now();
  try {
    dagre.layout(g);
  } catch (e) {
    // Its recursive searches overflow the stack on deep graphs, as they
    // would in a browser tab.
    if (e instanceof RangeError && /call stack/.test(e.message))
      console.log(`out-of-stack seconds=${(performance.now() / 1000).toFixed(1)}`);
    else
      console.log(`failed ${e.name}: ${e.message}`);
    process.exit(1);
  }
  const layoutMs = performance.now() - start;
  const peakMib = process.resourceUsage().maxRSS / 1024;

  // performance.now() counts from the process's start.
  console.log(`ok layout_ms=${layoutMs.toFixed(1)} total_ms=${performance.now().toFixed(1)} ` +
              `peak_mib=${peakMib.toFixed(0)}`);
}

function supervise(dagreDir, file) {
  const heapMib = envNumber('SL_BENCH_DAGRE_HEAP_MB', 4096);
  const timeoutS = Math.max(envNumber('SL_BENCH_DAGRE_TIMEOUT', 60), 1);
  const stackKib = envNumber('SL_BENCH_DAGRE_STACK_KB', 0);
  const args = heapMib > 0 ? [`--max-old-space-size=${heapMib}`] : [];

  if (stackKib > 0)
    args.push(`--stack-size=${stackKib}`);
  const child = childProcess.spawn(process.execPath, [...args, __filename, '--child', dagreDir, file],
                                   { stdio: ['inherit', 'pipe', 'pipe'] });
  const start = performance.now();
  let stdout = '';
  let stderr = '';
  let cutOff = false;
  const timer = setTimeout(() => {
    cutOff = true;
    child.kill('SIGKILL');
  }, timeoutS * 1000);

  child.stdout.on('data', (chunk) => { stdout += chunk; });
  // A heap failure prints a long trace: keep its end.
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-65536); });
  child.on('close', (code, signal) => {
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    const line = stdout.split('\n').find((l) => /^(ok|out-of-stack|failed) /.test(l));

    clearTimeout(timer);
    if (cutOff)
      console.log(`cut-off seconds=${timeoutS}`);
    else if (/heap out of memory|Reached heap limit|Allocation failed/.test(stderr))
      console.log(`out-of-memory seconds=${seconds} heap_mib=${heapMib > 0 ? heapMib : 'default'}`);
    else if (line !== undefined)
      console.log(line);
    else {
      const last = stderr.trim().split('\n').filter((l) => l.trim() !== '').pop();
      console.log(`failed ${signal !== null ? `killed by ${signal}` : `exit status ${code}`}` +
                  (last !== undefined ? `: ${last.trim()}` : ''));
    }
  });
}

const argv = process.argv.slice(2);
if (argv[0] === '--child' && argv.length === 3)
  runLayout(argv[1], argv[2]);
else if (argv.length === 2)
  supervise(argv[0], argv[1]);
else
  usage();

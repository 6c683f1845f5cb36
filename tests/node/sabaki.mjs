// Drives a GTP engine with @sabaki/gtp exactly as Sabaki does
// (SabakiHQ/Sabaki src/modules/enginesyncer.js, sabaki.js; @sabaki/gtp
// ControllerStateTracker), and checks every answer.
//
//   node sabaki.mjs ENGINE [ARGS...]
//
// Prints one line per step and exits non-zero on the first failure.

import gtp from '@sabaki/gtp'
import {check} from './check.mjs'

const {Controller, ControllerStateTracker} = gtp

const [path, ...args] = process.argv.slice(2)
if (!path) {
  console.error('usage: node sabaki.mjs ENGINE [ARGS...]')
  process.exit(2)
}

// Sabaki's analysis parser (src/modules/analysis.js parseAnalysis, v0.52.2): blocks
// split on `info`, the PV is the trailing run of vertices, win rate float if it has a
// dot, else an integer in 1/100 of a percent.
function parseAnalysis(line) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(block => {
      let pvMatch = block.match(/(?:^|\s)pv((?:\s+(?:pass|[A-Za-z]\d+))+)\s*$/)
      let pv = pvMatch ? pvMatch[1].trim().split(/\s+/) : []
      let rest = pvMatch ? block.slice(0, pvMatch.index) : block
      let tokens = rest.trim().split(/\s+/)
      let kv = {}
      for (let i = 0; i + 1 < tokens.length; i += 2) kv[tokens[i]] = tokens[i + 1]
      let winrate = kv.winrate.includes('.') ? +kv.winrate * 100 : +kv.winrate / 100
      return {move: kv.move, visits: +kv.visits, winrate, scoreLead: kv.scoreLead, pv}
    })
}

const controller = new Controller(path, args)
const stderr = []
controller.on('stderr', ({content}) => stderr.push(content))
controller.start()
const tracker = new ControllerStateTracker(controller)

const timeout = setTimeout(() => {
  console.error('FAIL timed out; engine stderr:\n' + stderr.join('\n'))
  process.exit(1)
}, 120000)

try {
  // 1. The start-up burst, all four at once.
  let [name, version, protocol, list] = await Promise.all(
    ['name', 'version', 'protocol_version', 'list_commands'].map(name =>
      controller.sendCommand({name})
    )
  )
  check(!name.error && name.content === 'Tengen', 'name', name.content)
  check(!version.error && /^\d+\.\d+/.test(version.content), 'version', version.content)
  check(!protocol.error && protocol.content === '2', 'protocol_version')
  let commands = list.content.split('\n').map(x => x.trim())
  for (let c of ['undo', 'set_free_handicap', 'kata-analyze', 'lz-analyze', 'kata-genmove_analyze', 'genmove'])
    check(commands.includes(c), `list_commands has ${c}`)

  // 2. Sync: komi, boardsize, clear_board and the plays, pipelined; setup stones of
  // one colour come as plays of the same colour in a row; komi 0 when the SGF has none.
  let history = [
    {name: 'play', args: ['B', 'D4']},
    {name: 'play', args: ['B', 'F6']},
    {name: 'play', args: ['W', 'C3']},
    {name: 'play', args: ['W', 'pass']},
    {name: 'play', args: ['B', 'E5']}
  ]
  await tracker.sync({komi: 0, boardsize: [9, 9], history})
  check(tracker.state.history.length === 5, 'sync with the same colour twice')
  let board = await controller.sendCommand({name: 'list_stones', args: ['B']})
  check(board.content === 'D4 E5 F6', 'the engine has the synced stones', board.content)

  // 3. A shorter history that shares a prefix: Sabaki sends `undo`s, not a replay.
  let sent = []
  let onSent = ({command}) => sent.push(command.name)
  controller.on('command-sent', onSent)
  await tracker.sync({komi: 0, boardsize: [9, 9], history: history.slice(0, 3)})
  controller.off('command-sent', onSent)
  check(sent.filter(n => n === 'undo').length === 2 && !sent.includes('clear_board'),
    'sync back uses undo', sent.join(','))
  let white = await controller.sendCommand({name: 'list_stones', args: ['W']})
  check(white.content === 'C3', 'undo restored the position', white.content)

  // 4. genmove, as Sabaki reads it (trimmed, lower case; resign or pass or a vertex).
  let move = await controller.sendCommand({name: 'genmove', args: ['W']})
  let vertex = move.content.trim().toLowerCase()
  check(!move.error && /^(pass|resign|[a-hj-z]\d+)$/.test(vertex), 'genmove W', move.content)

  // 5. kata-genmove_analyze B 50: info lines, then `play <vertex>`.
  let played = null
  let infoLines = 0
  let gma = await controller.sendCommand(
    {name: 'kata-genmove_analyze', args: ['B', '50']},
    ({line}) => {
      if (line.startsWith('info ')) infoLines++
      let m = line.trim().match(/^play\s+(.*)$/)
      if (m) played = m[1]
    }
  )
  check(!gma.error && played != null, 'kata-genmove_analyze ends with play', String(played))

  // 6. kata-analyze B 50, streamed, then stopped by the next command (Sabaki sends
  // protocol_version to abort).
  let lines = []
  let analysis = controller.sendCommand({name: 'kata-analyze', args: ['B', '50']}, ({line}) => {
    if (line.startsWith('info')) lines.push(line)
  })
  let waited = 0
  while (lines.length < 2 && waited < 30000) {
    await new Promise(r => setTimeout(r, 50))
    waited += 50
  }
  check(lines.length >= 2, 'kata-analyze streams info lines', `${lines.length} lines`)
  let abort = controller.sendCommand({name: 'protocol_version'})
  let [analysisDone, abortDone] = await Promise.all([analysis, abort])
  check(!analysisDone.error, 'the stream ends with one answer')
  check(abortDone.content === '2', 'the aborting command is answered after it')
  let parsed = parseAnalysis(lines[lines.length - 1])
  check(parsed.length > 0, 'Sabaki parses the info blocks')
  let malformed = parsed.filter(v => !(/^[A-Za-z]\d+$|^pass$/.test(v.move) && v.visits >= 0
    && v.pv.length > 0 && v.winrate >= 0 && v.winrate <= 100 && v.scoreLead !== undefined))
  let best = parsed[0]
  check(malformed.length === 0, `every block has move, visits, winrate, scoreLead, pv (best ${best.move}:`
    + ` ${best.visits} visits, ${best.winrate.toFixed(1)}%, pv ${best.pv.join(' ')})`,
    JSON.stringify(malformed[0]))

  // 7. lz-analyze with integer win rates, and a new command stops it too.
  let lzLines = []
  let lz = controller.sendCommand({name: 'lz-analyze', args: ['W', '10']}, ({line}) => {
    if (line.startsWith('info')) lzLines.push(line)
  })
  await new Promise(r => setTimeout(r, 600))
  let nm = controller.sendCommand({name: 'name'})
  await lz
  check((await nm).content === 'Tengen', 'lz-analyze stopped by the next command')
  if (lzLines.length > 0) {
    let w = lzLines[0].match(/winrate (\S+)/)[1]
    check(/^\d+$/.test(w), 'lz-analyze win rates are integers', w)
  }

  // 8. Errors answer `?` and change nothing; then quit within Sabaki's 3 s.
  let bad = await controller.sendCommand({name: 'play', args: ['B', 'Z99']})
  check(bad.error, 'an off-board vertex is refused')
  await controller.stop(3000)
  check(controller.process == null, 'quit ends the engine')
} catch (e) {
  console.error('FAIL ' + (e && e.stack ? e.stack : e) + '\nengine stderr:\n' + stderr.join('\n'))
  process.exit(1)
}
clearTimeout(timeout)
console.log('all Sabaki checks passed')

// Reads a reviewed record with @sabaki/sgf, Sabaki's own SGF parser, and checks what
// Sabaki's graph reads (SabakiHQ/Sabaki src/modules/sabaki.js, winrateData and
// scoreLeadData: `+node.data.SBKV[0]` and `+node.data.SBKS[0]` of every node of the
// current line, the root included).
//
//   node review.mjs REVIEWED.sgf MOVES
//
// MOVES is the number of moves of the main line. Prints one line per check and exits
// non-zero on the first failure.

import sgf from '@sabaki/sgf'
import {check} from './check.mjs'

const [path, moves] = process.argv.slice(2)
if (!path || !moves) {
  console.error('usage: node review.mjs REVIEWED.sgf MOVES')
  process.exit(2)
}

let trees = sgf.parseFile(path)
check(trees.length === 1, 'one game tree', String(trees.length))

// The main line: the first child of every node, as Sabaki's game tree lists it.
let line = []
for (let node = trees[0]; node != null; node = node.children[0]) line.push(node)
let moveNodes = line.filter(n => n.data.B != null || n.data.W != null)
check(moveNodes.length === +moves, `${moves} moves on the main line`, String(moveNodes.length))

let winrates = line.map(x => x.data.SBKV && +x.data.SBKV[0])
let leads = line.map(x => x.data.SBKS && +x.data.SBKS[0])
let bad = winrates.findIndex(w => !(Number.isFinite(w) && w >= 0 && w <= 100))
check(bad < 0, 'every node has SBKV, a win rate in percent', `node ${bad}: ${line[bad] && line[bad].data.SBKV}`)
bad = leads.findIndex(s => !Number.isFinite(s))
check(bad < 0, 'every node has SBKS, a score lead', `node ${bad}`)
check(new Set(winrates).size > 1, 'the win rates vary over the game', winrates.join(' '))

let comments = moveNodes.filter(n => n.data.C && /Tengen: move \d+/.test(n.data.C[0]))
check(comments.length === moveNodes.length, 'every move has the review comment', String(comments.length))
check(/Tengen review:/.test(line[0].data.C[0]) && /Key mistakes/.test(line[0].data.C[0]),
  'the root comment has the summary and the key mistakes')

// Tengen's preferred moves hang beside the moves played, with their own SBKV.
let variations = line.flatMap(n => n.children.slice(1))
  .filter(v => v.data.C && /Tengen's preferred move/.test(v.data.C[0]))
check(variations.length > 0, 'the preferred moves are variations', String(variations.length))
check(variations.every(v => Number.isFinite(+v.data.SBKV[0])), 'each variation starts with its SBKV')

console.log(`SBKV ${winrates.join(' ')}`)
console.log('all Sabaki checks passed')

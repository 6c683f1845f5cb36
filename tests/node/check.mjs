// One check of a test script: prints `ok   WHAT`, or `FAIL WHAT: DETAIL` on stderr and
// exits with status 1.
export function check(cond, what, detail = '') {
  if (!cond) {
    console.error(`FAIL ${what}${detail ? ': ' + detail : ''}`)
    process.exit(1)
  }
  console.log(`ok   ${what}`)
}

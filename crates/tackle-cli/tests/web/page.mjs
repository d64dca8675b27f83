// Drives the chat page of `tackle serve` in Debian's Chromium (headless) with
// playwright-core, as a person would: sign in, ask, see the answer stream and the tool call,
// approve a suspended call, reload mid-run, open a second tab, turn a tool off, and check
// that another user sees none of it. Screenshots of each step go to $SCREENSHOTS; the
// page's load time and size are printed as a JSON line. Started by tests/it/web.rs.
import { createRequire } from 'node:module';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const url = env('TACKLE_URL');
const alice = env('TOKEN_ALICE');
const bob = env('TOKEN_BOB');
const shots = env('SCREENSHOTS');
// Only this run's screenshots are left to look at.
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });
const require = createRequire(join(env('PLAYWRIGHT_DIR'), 'node_modules', '/'));
const { chromium } = require('playwright-core');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};
const elsewhere = [];
const watch = (page) => {
  page.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
};
const shot = (page, name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const timeout = 15000;

try {
  // First load, nothing cached: how long until the page can be used, and how much it took.
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  watch(page);
  const started = Date.now();
  await page.goto(url);
  await page.locator('#token').waitFor({ state: 'visible', timeout });
  const wall = Date.now() - started;
  const load = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const bytes = nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0);
    const decoded = nav.decodedBodySize + resources.reduce((sum, r) => sum + r.decodedBodySize, 0);
    return { interactive_ms: nav.domInteractive, dom_complete_ms: nav.domComplete, bytes, decoded, files: resources.length + 1 };
  });
  console.log(JSON.stringify({ page_load: { ...load, ready_ms: wall } }));
  await shot(page, '01-sign-in');

  // A wrong token is refused, the right one signs in.
  await page.fill('#token', 'tk_not_a_token');
  await page.press('#token', 'Enter');
  await page.locator('#signin-error', { hasText: 'not valid' }).waitFor({ timeout });
  await page.fill('#token', alice);
  await page.press('#token', 'Enter');
  await page.locator('#who', { hasText: 'alice' }).waitFor({ timeout });

  // Ask, by keyboard: the streamed text, then the call waiting for approval.
  await page.locator('#prompt').focus();
  await page.keyboard.type('Please save a note that says hi.');
  await page.keyboard.press('Enter');
  await page.locator('.bubble.user', { hasText: 'Please save a note' }).waitFor({ timeout });
  await page.locator('.answer', { hasText: 'I will save it.' }).waitFor({ timeout });
  const approval = page.locator('.prompt.approval');
  await approval.waitFor({ timeout });
  check((await approval.locator('code').first().textContent()) === 'write_file', 'the approval names the tool');
  check((await approval.locator('textarea').inputValue()).includes('"note.txt"'), 'the approval shows the arguments');
  await page.locator('.sessions a', { hasText: 'Please save a note' }).waitFor({ timeout });
  await shot(page, '02-approval');

  // A reload loses nothing: the text and the waiting call are back (and how long a
  // signed-in load takes until the conversation is shown, with the files cached).
  const reloaded = Date.now();
  await page.reload();
  await page.locator('.answer', { hasText: 'I will save it.' }).waitFor({ timeout });
  await page.locator('.prompt.approval').waitFor({ timeout });
  console.log(JSON.stringify({ signed_in_reload: { conversation_ms: Date.now() - reloaded } }));
  await shot(page, '03-reloaded-while-waiting');

  // A second tab, signed in already, shows the same conversation.
  const second = await context.newPage();
  watch(second);
  await second.goto(page.url());
  await second.locator('.prompt.approval').waitFor({ timeout });

  // Edit the arguments and approve, by keyboard, in the first tab; the edited call runs and
  // the model is asked again. (Broken JSON is refused on the page first.)
  const editor = page.locator('.prompt.approval textarea');
  await editor.fill('{"path": "note.txt", "content": ');
  await page.locator('.prompt.approval button.approve').focus();
  await page.keyboard.press('Enter');
  await page.locator('.prompt.approval .error', { hasText: 'not JSON' }).waitFor({ timeout });
  await editor.fill('{"path": "note.txt", "content": "hi there"}');
  await page.locator('.prompt.approval button.approve').focus();
  await page.keyboard.press('Enter');
  const call = page.locator('.call[data-tool="write_file"]');
  await page.locator('.call[data-tool="write_file"][data-status="ok"]').waitFor({ timeout });
  // The second tab hears of it without a reload.
  await second.locator('.call[data-tool="write_file"][data-status="ok"]').waitFor({ timeout });
  check(await second.locator('.prompt.approval').count() === 0, 'the second tab drops the answered approval');

  // Reload while the model is still working: the call is kept, the answer arrives.
  check(await page.locator('#stop').isVisible(), 'a running run can be stopped');
  await page.reload();
  await page.locator('.call[data-tool="write_file"][data-status="ok"]').waitFor({ timeout });
  await shot(page, '04-reloaded-mid-run');
  await page.locator('.answer', { hasText: 'Saved the note.' }).waitFor({ timeout });
  // The composer is back once the run has settled (its status follows the last event).
  await page.locator('.run[data-status="answered"]').waitFor({ timeout });
  check(await page.locator('#send').isVisible(), 'the composer is back once the run answered');
  await shot(page, '05-answered');

  // The call opens to its full arguments and the result the model saw.
  await call.locator('summary').click();
  await call.locator('.call-body pre').first().waitFor({ timeout });
  const body = await call.locator('.call-body').textContent();
  check(body.includes('"content": "hi there"'), 'the full arguments are shown, as edited');
  check(body.includes('Result the model saw'), 'the result is shown');
  await shot(page, '06-call-details');

  // Tools: what is offered and why not; turning one off is kept.
  await page.click('#open-tools');
  const reader = page.locator('.tool[data-tool="read_file"]');
  await reader.waitFor({ timeout });
  check(await reader.locator('input').isChecked(), 'read_file starts on');
  await reader.locator('input').uncheck();
  await page.locator('.tool.not-offered[data-tool="read_file"]').waitFor({ timeout });
  const reason = await page.locator('.tool[data-tool="read_file"] .tool-reason').textContent();
  check(/turned off|you|preference/i.test(reason || ''), `the reason says the user turned it off: ${reason}`);
  // Kept: it is still off when the list is read again.
  await page.keyboard.press('Escape');
  await page.click('#open-tools');
  await page.locator('.tool.not-offered[data-tool="read_file"]').waitFor({ timeout });
  check(!(await page.locator('.tool[data-tool="read_file"] input').isChecked()), 'the preference is kept');
  await shot(page, '07-tools');
  await page.keyboard.press('Escape');

  // A second conversation: a search with sources (one result filtered), a question to
  // choose from, the answer; then a slow run, stopped.
  await page.click('#new-chat');
  await page.locator('.run').first().waitFor({ state: 'detached', timeout });
  await page.fill('#prompt', 'Which colour should I pick?');
  await page.press('#prompt', 'Enter');
  await page.locator('.call[data-tool="web_search"][data-status="ok"]').waitFor({ timeout });
  const choices = page.locator('.prompt.choices');
  await choices.waitFor({ timeout });
  check((await choices.textContent()).includes('Which colour do you like?'), 'the question is shown');
  await shot(page, '08-question');
  const notOk = await page.locator('.call.not-ok').evaluateAll((calls) =>
    calls.map((c) => `${c.dataset.tool}: ${c.dataset.status}: ${c.querySelector('.call-detail')?.textContent}`));
  check(notOk.length === 0, `every call ran: ${notOk.join('; ')}`);
  await choices.getByLabel('Blue').check();
  await choices.locator('button[type="submit"]').click();
  await page.locator('.answer', { hasText: 'Blue it is' }).waitFor({ timeout });
  check(await page.locator('.warning').count() > 0, 'the filtered content is flagged');
  await shot(page, '09-answered-with-warning');
  check(await page.locator('.sessions a').count() === 2, 'two conversations are listed');
  await page.fill('#prompt', 'And one more thing.');
  await page.press('#prompt', 'Enter');
  await page.locator('#stop').waitFor({ state: 'visible', timeout });
  await page.click('#stop');
  await page.locator('.run[data-status="cancelled"]').waitFor({ timeout });
  check(await page.locator('#send').isVisible(), 'a stopped run frees the composer');
  await shot(page, '10-stopped');

  // On a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, '11-phone');
  await page.click('#menu');
  await page.locator('#sidebar').waitFor({ state: 'visible', timeout });
  await shot(page, '12-phone-menu');
  await page.setViewportSize({ width: 1200, height: 800 });
  const aliceSession = page.url();

  // Another user sees nothing of it.
  await page.click('#signout');
  await page.locator('#token').waitFor({ state: 'visible', timeout });
  await page.fill('#token', bob);
  await page.press('#token', 'Enter');
  await page.locator('#who', { hasText: 'bob' }).waitFor({ timeout });
  check(await page.locator('.sessions a').count() === 0, "bob has no conversations");
  await page.goto(aliceSession);
  await page.locator('#notice', { hasText: 'not yours' }).waitFor({ timeout });
  check(await page.locator('.run').count() === 0, "bob cannot see alice's conversation");
  await shot(page, '13-another-user');

  check(elsewhere.length === 0, `requests went elsewhere: ${elsewhere.join(', ')}`);
} catch (error) {
  failures.push(`${error.name}: ${error.message}`);
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(JSON.stringify({ failures }));
  process.exit(1);
}
console.log(JSON.stringify({ ok: true }));

// The chat page of `tackle serve`: sign in with a token, conversations, runs streamed from
// their events, tool calls, approvals and questions, cancel, tools and preferences.
// Everything shown comes from the server's API; a reload or a second tab rebuilds the same
// view from the same events. Text from the model, tools or pages is only ever set as text.

import { Api, ApiError } from './api.js';

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'tackle.token';
const ACTIVE = new Set(['queued', 'running']);

// Builds an element: attributes (on* as listeners), then children (strings become text).
function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function short(value, max = 80) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function pretty(value) {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function seconds(ms) {
  if (ms < 1) return '<1 ms';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// Only web addresses become links.
function safeUrl(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const state = {
  api: null,
  me: null,
  session: null, // the open conversation's id, or null for a new one
  views: new Map(), // run id → RunView
  generation: 0, // bumped when the conversation view is rebuilt
};

function notice(text) {
  const el = $('notice');
  el.textContent = text || '';
  el.hidden = !text;
}

// One run in the conversation: the prompt, then what happened, built from its events.
class RunView {
  constructor(run, prompt) {
    this.id = run.id;
    this.status = run.status;
    this.seq = 0;
    this.text = null; // the text block being appended to
    this.calls = new Map();
    this.pending = [];
    this.decisions = {};
    this.answered = false;
    this.controller = new AbortController();
    this.body = h('div', { class: 'run-body' });
    this.state = h('p', { class: 'run-state' });
    this.sources = h('ol', { class: 'sources', hidden: true });
    this.prompts = h('div', { class: 'prompts' });
    this.el = h(
      'article',
      { class: 'run', 'data-run': run.id },
      h('div', { class: 'bubble user' }, prompt),
      h('div', { class: 'bubble assistant' }, this.body, this.prompts, this.sources, this.state),
    );
    this.setStatus(run.status);
  }

  setStatus(status, error) {
    this.status = status;
    const words = {
      queued: 'Waiting to start…',
      running: 'Working…',
      suspended: 'Waiting for you.',
      answered: '',
      failed: `Failed: ${error || 'the run could not finish.'}`,
      cancelled: 'Stopped.',
    };
    this.state.textContent = words[status] ?? status;
    this.state.className = `run-state ${status}`;
    this.el.dataset.status = status;
    updateComposer();
  }

  appendText(text, kind = 'text') {
    if (!this.text || this.text.dataset.kind !== kind) {
      this.text = kind === 'thinking'
        ? h('details', { class: 'thinking', 'data-kind': kind }, h('summary', {}, 'Thinking'), h('div', { class: 'thinking-text' }))
        : h('div', { class: 'answer', 'data-kind': kind });
      this.body.append(this.text);
    }
    const target = kind === 'thinking' ? this.text.querySelector('.thinking-text') : this.text;
    target.append(text);
  }

  handle(event) {
    switch (event.event) {
      case 'run_started':
        this.clearPrompts();
        this.setStatus('running');
        break;
      case 'text_delta':
        this.appendText(event.text);
        break;
      case 'thinking_delta':
        this.appendText(event.text, 'thinking');
        break;
      case 'tool_call_started':
        this.callStarted(event);
        break;
      case 'tool_progress': {
        const call = this.calls.get(event.call_id);
        if (call) {
          const share = event.total ? ` ${Math.round((100 * event.progress) / event.total)} %` : '';
          call.state.textContent = `running…${share}${event.message ? ` ${short(event.message, 60)}` : ''}`;
        }
        break;
      }
      case 'tool_call_finished':
        this.callFinished(event);
        break;
      case 'content_filtered':
        this.warn(`Some of what ${event.name} returned looked like instructions aimed at the model; it was withheld from the model.`, event.report);
        break;
      case 'host_attention':
        this.warn(`${event.name} cannot run until the application is fixed${event.detail ? `: ${event.detail}` : '.'}`);
        break;
      case 'sources':
        for (const source of event.sources || []) this.addSource(source);
        break;
      case 'suspended':
        this.suspended(event.pending || []);
        break;
      case 'finished':
        this.answered = true;
        break;
      default:
        break;
    }
  }

  callStarted(event) {
    this.text = null;
    const state = h('span', { class: 'call-state' }, 'running…');
    const took = h('span', { class: 'call-took' });
    const result = h('div', { class: 'call-result' });
    const el = h(
      'details',
      { class: 'call running', 'data-call': event.call_id, 'data-tool': event.name },
      h('summary', {}, h('code', { class: 'call-name' }, event.name), ' ', h('span', { class: 'call-args' }, short(event.arguments)), ' ', state, ' ', took),
      h('div', { class: 'call-body' }, h('h4', {}, 'Arguments'), h('pre', {}, pretty(event.arguments)), result),
    );
    this.calls.set(event.call_id, { el, state, took, result });
    this.body.append(el);
  }

  callFinished(event) {
    let call = this.calls.get(event.call_id);
    if (!call) {
      // A call that waited (an approval, a question) and was answered without running here.
      const waited = this.waited?.get(event.call_id);
      this.callStarted({ call_id: event.call_id, name: event.name, arguments: waited ?? {} });
      call = this.calls.get(event.call_id);
    }
    call.el.classList.remove('running');
    call.el.classList.add(event.status === 'ok' ? 'ok' : 'not-ok');
    call.el.dataset.status = event.status;
    call.state.textContent = event.status === 'ok' ? 'done' : event.status.replaceAll('_', ' ');
    if (event.duration !== undefined) call.took.textContent = seconds(event.duration);
    call.result.replaceChildren(
      event.detail ? h('p', { class: 'call-detail' }, event.detail) : '',
      event.result !== undefined ? h('h4', {}, 'Result the model saw') : '',
      event.result !== undefined ? h('pre', {}, event.result) : '',
    );
  }

  warn(text, report) {
    this.text = null;
    const extra = report ? h('details', {}, h('summary', {}, 'What was withheld'), h('pre', {}, pretty(report))) : '';
    this.body.append(h('div', { class: 'warning', role: 'note' }, h('span', {}, `⚠ ${text}`), extra));
  }

  addSource(source) {
    const href = safeUrl(source.url);
    if (!href || [...this.sources.querySelectorAll('a')].some((a) => a.href === href)) return;
    this.sources.hidden = false;
    this.sources.append(h('li', {}, h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, source.title || source.url)));
  }

  clearPrompts() {
    this.pending = [];
    this.decisions = {};
    this.prompts.replaceChildren();
  }

  suspended(pending) {
    this.clearPrompts();
    this.pending = pending;
    this.waited = new Map(pending.map((p) => [p.call_id, p.arguments]));
    for (const item of pending) {
      if (item.kind === 'approval') this.prompts.append(this.approvalCard(item));
      else if (item.kind === 'input') this.prompts.append(this.questionCard(item));
      else if (item.tool === 'ask_user_question' && Array.isArray(item.arguments?.questions)) {
        this.prompts.append(this.choiceCard(item));
      } else this.prompts.append(h('div', { class: 'prompt' }, `${item.tool} waits for a result from elsewhere.`));
    }
  }

  approvalCard(item) {
    const original = pretty(item.arguments);
    const editor = h('textarea', { class: 'arguments', rows: Math.min(12, original.split('\n').length + 1), 'aria-label': `Arguments for ${item.tool}`, spellcheck: 'false' });
    editor.value = original;
    const reason = h('input', { type: 'text', class: 'reason', placeholder: 'Reason (optional)', 'aria-label': 'Reason for denying' });
    const error = h('p', { class: 'error', role: 'alert' });
    const card = h('form', { class: 'prompt approval', 'data-call': item.call_id });
    const decide = (decision) => {
      error.textContent = '';
      this.decide(item.call_id, decision, card, error);
    };
    const approve = h('button', { type: 'submit', class: 'primary approve' }, 'Approve');
    const deny = h('button', {
      type: 'button',
      class: 'danger deny',
      onclick: () => decide({ decision: 'deny', reason: reason.value.trim() || undefined }),
    }, 'Deny');
    card.addEventListener('submit', (e) => {
      e.preventDefault();
      if (editor.value.trim() === original.trim()) return decide({ decision: 'approve' });
      let edited;
      try {
        edited = JSON.parse(editor.value);
      } catch (err) {
        error.textContent = `The arguments are not JSON: ${err.message}`;
        return undefined;
      }
      if (!edited || typeof edited !== 'object' || Array.isArray(edited)) {
        error.textContent = 'The arguments must be a JSON object.';
        return undefined;
      }
      return decide({ decision: 'approve_with_arguments', arguments: edited });
    });
    card.append(
      h('p', { class: 'prompt-title' }, 'Allow ', h('code', {}, item.tool), ' to run?'),
      h('label', {}, 'Arguments (edit to change what runs)'),
      editor,
      h('div', { class: 'row' }, approve, reason, deny),
      error,
    );
    return card;
  }

  questionCard(item) {
    const request = item.request || { message: '', schema: {} };
    const properties = request.schema?.properties || {};
    const required = new Set(request.schema?.required || []);
    const fields = [];
    const card = h('form', { class: 'prompt question', 'data-call': item.call_id });
    const list = h('div', { class: 'fields' });
    for (const [name, schema] of Object.entries(properties)) {
      const id = `q-${item.call_id}-${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
      const label = schema.title || name;
      const choices = schema.enum || schema.oneOf?.map((o) => o.const) || null;
      let input;
      if (choices) {
        const names = schema.enumNames || schema.oneOf?.map((o) => o.title || o.const) || choices;
        input = h('select', { id, required: required.has(name) }, h('option', { value: '' }, '—'), choices.map((c, i) => h('option', { value: String(c) }, names[i] ?? c)));
        if (schema.default !== undefined) input.value = String(schema.default);
      } else if (schema.type === 'boolean') {
        input = h('input', { id, type: 'checkbox', checked: schema.default === true });
      } else if (schema.type === 'number' || schema.type === 'integer') {
        input = h('input', { id, type: 'number', step: schema.type === 'integer' ? '1' : 'any', min: schema.minimum, max: schema.maximum, required: required.has(name) });
        if (schema.default !== undefined) input.value = String(schema.default);
      } else {
        const type = { email: 'email', uri: 'url', date: 'date' }[schema.format] || 'text';
        input = h('input', { id, type, minlength: schema.minLength, maxlength: schema.maxLength, required: required.has(name) });
        if (schema.default !== undefined) input.value = String(schema.default);
      }
      fields.push({ name, schema, input, choices });
      list.append(h('div', { class: 'field' }, h('label', { for: id }, label, required.has(name) ? ' *' : ''), schema.description ? h('small', {}, schema.description) : '', input));
    }
    const error = h('p', { class: 'error', role: 'alert' });
    const answer = (action) => {
      const response = { action };
      if (action === 'accept') {
        const content = {};
        for (const { name, schema, input, choices } of fields) {
          if (schema.type === 'boolean') content[name] = input.checked;
          else if (input.value === '') continue;
          else if (schema.type === 'number' || schema.type === 'integer') content[name] = Number(input.value);
          else if (choices) content[name] = choices.find((c) => String(c) === input.value) ?? input.value;
          else content[name] = input.value;
        }
        response.content = content;
      }
      this.decide(item.call_id, { decision: 'input', response }, card, error);
    };
    card.addEventListener('submit', (e) => {
      e.preventDefault();
      answer('accept');
    });
    card.append(
      h('p', { class: 'prompt-title' }, h('code', {}, item.tool), ' asks:'),
      h('p', { class: 'question-text' }, request.message),
      list,
      h('div', { class: 'row' },
        h('button', { type: 'submit', class: 'primary' }, 'Answer'),
        h('button', { type: 'button', onclick: () => answer('decline') }, 'Decline'),
        h('button', { type: 'button', class: 'danger', onclick: () => answer('cancel') }, 'Cancel')),
      error,
    );
    return card;
  }

  // The model's multiple-choice questions (`ask_user_question`): options, or own words.
  choiceCard(item) {
    const card = h('form', { class: 'prompt choices', 'data-call': item.call_id });
    const error = h('p', { class: 'error', role: 'alert' });
    const groups = item.arguments.questions.map((q, qi) => {
      const name = `c-${item.call_id}-${qi}`.replace(/[^A-Za-z0-9_-]/g, '_');
      const type = q.multiple ? 'checkbox' : 'radio';
      const boxes = (q.options || []).map((option, oi) => {
        const id = `${name}-${oi}`;
        const box = h('input', { type, id, name, value: option.label });
        return { box, el: h('div', { class: 'choice' }, box, h('label', { for: id }, h('strong', {}, option.label), option.description ? ` — ${option.description}` : '')) };
      });
      const own = h('input', { type: 'text', class: 'own', placeholder: 'Or in your own words', 'aria-label': `${q.header}: your own answer` });
      const fieldset = h('fieldset', {}, h('legend', {}, h('span', { class: 'header' }, q.header), ' ', q.question), boxes.map((b) => b.el), own);
      return { fieldset, boxes, own };
    });
    card.addEventListener('submit', (e) => {
      e.preventDefault();
      const answers = [];
      for (const [i, group] of groups.entries()) {
        const words = group.own.value.trim();
        const picked = group.boxes.filter((b) => b.box.checked).map((b) => b.box.value);
        if (words) answers.push(words);
        else if (picked.length) answers.push(picked);
        else {
          error.textContent = `Question ${i + 1} has no answer yet.`;
          return;
        }
      }
      error.textContent = '';
      this.decide(item.call_id, { decision: 'answers', answers }, card, error);
    });
    card.append(
      h('p', { class: 'prompt-title' }, 'The assistant asks:'),
      ...groups.map((g) => g.fieldset),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Answer')),
      error,
    );
    return card;
  }

  // Keeps a decision; once every call a person can decide has one, sends them together.
  async decide(callId, decision, card, error) {
    this.decisions[callId] = decision;
    for (const control of card.querySelectorAll('button, input, textarea, select')) control.disabled = true;
    card.classList.add('decided');
    const decidable = (p) => p.kind !== 'deferred' || p.tool === 'ask_user_question';
    const open = this.pending.filter((p) => decidable(p) && !(p.call_id in this.decisions));
    if (open.length) return;
    try {
      await state.api.decide(this.id, this.decisions);
      this.setStatus('queued');
      if (this.wake) this.wake();
      follow(this);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Decided elsewhere (another tab): the events will say what happened.
        if (this.wake) this.wake();
        follow(this);
        return;
      }
      error.textContent = err.message;
      delete this.decisions[callId];
      card.classList.remove('decided');
      for (const control of card.querySelectorAll('button, input, textarea, select')) control.disabled = false;
    }
  }
}

// Waits `ms`, or less when the view is woken (a decision was sent from this page).
function nap(view, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    view.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

// Follows a run's events until it settles; a suspended run is checked on until someone
// decides (here, in another tab, or through the API), then followed again.
async function follow(view) {
  if (view.following) return;
  view.following = true;
  const generation = state.generation;
  try {
    for (;;) {
      if (generation !== state.generation) return;
      try {
        view.seq = await state.api.follow(view.id, view.seq, (event) => view.handle(event), view.controller.signal);
      } catch (err) {
        if (err.name === 'AbortError' || generation !== state.generation) return;
        if (err instanceof ApiError && err.status !== 503) {
          view.setStatus('failed', err.message);
          return;
        }
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      let run;
      try {
        run = await state.api.run(view.id);
      } catch {
        await nap(view, 1000);
        continue;
      }
      if (ACTIVE.has(run.status)) continue;
      view.setStatus(run.status, run.error);
      if (run.status === 'answered' && !view.body.querySelector('.answer') && run.answer) view.appendText(run.answer);
      if (run.status !== 'suspended') return;
      // Waiting for a decision: look again every two seconds while the page is shown.
      for (;;) {
        await nap(view, 2000);
        if (generation !== state.generation) return;
        if (document.visibilityState === 'hidden') continue;
        const now = await state.api.run(view.id).catch(() => null);
        if (now && now.status !== 'suspended') break;
      }
    }
  } finally {
    view.following = false;
  }
}

function activeView() {
  return [...state.views.values()].find((v) => ACTIVE.has(v.status));
}

function updateComposer() {
  const active = activeView();
  const waiting = [...state.views.values()].some((v) => v.status === 'suspended');
  $('send').hidden = Boolean(active);
  $('stop').hidden = !active;
  $('send').disabled = waiting;
  $('prompt').placeholder = waiting
    ? 'Answer the request above first.'
    : 'Ask something… (Enter sends, Shift+Enter for a new line)';
}

function resetConversation() {
  state.generation += 1;
  for (const view of state.views.values()) view.controller.abort();
  state.views.clear();
  $('conversation').replaceChildren();
  notice('');
  updateComposer();
}

function addRun(run, prompt) {
  const view = new RunView(run, prompt);
  state.views.set(run.id, view);
  $('conversation').append(view.el);
  return view;
}

async function openSession(id) {
  resetConversation();
  state.session = id;
  markSession();
  if (!id) {
    $('prompt').focus();
    return;
  }
  let session;
  try {
    session = await state.api.session(id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notice('This conversation does not exist, or it is not yours.');
    else notice(err.message);
    // What is typed next starts a new conversation.
    state.session = null;
    return;
  }
  document.title = `${session.title || 'Conversation'} · tackle`;
  for (const run of session.runs || []) {
    const view = addRun(run, run.request?.prompt ?? '');
    follow(view);
  }
}

async function send(prompt) {
  const body = { prompt };
  if (state.session) body.session = state.session;
  const created = await state.api.start(body);
  if (!state.session && created.session) {
    state.session = created.session;
    history.replaceState(null, '', `#/s/${encodeURIComponent(created.session)}`);
    markSession();
  }
  const view = addRun(created, prompt);
  follow(view);
  loadSessions();
}

async function loadSessions() {
  let listed;
  try {
    listed = await state.api.sessions();
  } catch (err) {
    notice(err.message);
    return;
  }
  $('sessions').replaceChildren(
    ...(listed.sessions || []).map((s) =>
      h('li', {}, h('a', { href: `#/s/${encodeURIComponent(s.id)}`, 'data-session': s.id }, s.title || 'Untitled'))),
  );
  markSession();
}

function markSession() {
  for (const a of $('sessions').querySelectorAll('a')) {
    if (a.dataset.session === state.session) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

function route() {
  const match = location.hash.match(/^#\/s\/(.+)$/);
  const id = match ? decodeURIComponent(match[1]) : null;
  if (id && id === state.session && state.views.size) return;
  closeMenu();
  openSession(id);
}

async function showTools() {
  const list = $('tool-list');
  list.replaceChildren(h('li', {}, 'Loading…'));
  if (!$('tools').open) $('tools').showModal();
  let tools;
  let me;
  try {
    [tools, me] = await Promise.all([state.api.tools(), state.api.me()]);
  } catch (err) {
    list.replaceChildren(h('li', { class: 'error' }, err.message));
    return;
  }
  state.me = me;
  const profile = me.profile || {};
  const off = new Set(profile.disabled_tools || []);
  list.replaceChildren(
    ...tools.tools.map((tool) => {
      const id = `tool-${tool.name}`;
      const box = h('input', { type: 'checkbox', id, checked: !off.has(tool.name) });
      box.addEventListener('change', async () => {
        box.disabled = true;
        const disabled = new Set(state.me.profile?.disabled_tools || []);
        if (box.checked) disabled.delete(tool.name);
        else disabled.add(tool.name);
        try {
          await state.api.setProfile({ ...(state.me.profile || {}), disabled_tools: [...disabled].sort() });
        } catch (err) {
          notice(err.message);
        }
        showTools();
      });
      return h('li', { class: tool.offered ? 'tool offered' : 'tool not-offered', 'data-tool': tool.name },
        h('div', { class: 'tool-head' }, box, h('label', { for: id }, h('code', {}, tool.name)), h('span', { class: 'tool-status' }, tool.offered ? 'offered' : 'not offered')),
        tool.description ? h('p', { class: 'tool-description' }, short(tool.description, 200)) : '',
        tool.reason ? h('p', { class: 'tool-reason' }, tool.reason) : '');
    }),
  );
}

function closeMenu() {
  document.body.classList.remove('menu-open');
  $('menu').setAttribute('aria-expanded', 'false');
}

function showSignin(message) {
  resetConversation();
  state.api = null;
  state.me = null;
  // Nothing of the last user stays in the page, not even hidden.
  $('sessions').replaceChildren();
  $('who').textContent = '';
  $('app').hidden = true;
  $('signin').hidden = false;
  $('signin-error').textContent = message || '';
  $('token').focus();
}

async function signIn(token) {
  const api = new Api(token);
  let me;
  try {
    me = await api.me();
  } catch (err) {
    localStorage.removeItem(TOKEN_KEY);
    showSignin(err instanceof ApiError && err.status === 401 ? 'That token is not valid.' : err.message);
    return;
  }
  state.api = api;
  state.me = me;
  $('who').textContent = `${me.user} · ${me.org}`;
  $('signin').hidden = true;
  $('app').hidden = false;
  state.session = undefined;
  await loadSessions();
  route();
}

function wire() {
  $('signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const token = $('token').value.trim();
    if (!token) return;
    localStorage.setItem(TOKEN_KEY, token);
    $('token').value = '';
    signIn(token);
  });
  $('signout').addEventListener('click', () => {
    localStorage.removeItem(TOKEN_KEY);
    history.replaceState(null, '', '#/');
    showSignin();
  });
  $('new-chat').addEventListener('click', () => {
    if (location.hash === '#/' || !location.hash) openSession(null);
    else location.hash = '#/';
    closeMenu();
  });
  $('open-tools').addEventListener('click', showTools);
  $('menu').addEventListener('click', () => {
    const open = document.body.classList.toggle('menu-open');
    $('menu').setAttribute('aria-expanded', String(open));
  });
  $('composer').addEventListener('submit', async (e) => {
    e.preventDefault();
    const prompt = $('prompt').value.trim();
    if (!prompt || activeView() || $('send').disabled) return;
    $('send').disabled = true;
    try {
      await send(prompt);
      $('prompt').value = '';
      notice('');
    } catch (err) {
      notice(err.message);
    } finally {
      updateComposer();
    }
  });
  $('prompt').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('composer').requestSubmit();
    }
  });
  $('stop').addEventListener('click', async () => {
    const view = activeView();
    if (!view) return;
    try {
      await state.api.cancel(view.id);
    } catch (err) {
      notice(err.message);
    }
  });
  window.addEventListener('hashchange', route);
  // Signing in or out in another tab does the same here.
  window.addEventListener('storage', (e) => {
    if (e.key !== TOKEN_KEY) return;
    if (e.newValue) signIn(e.newValue);
    else showSignin();
  });
}

wire();
const saved = localStorage.getItem(TOKEN_KEY);
if (saved) signIn(saved);
else showSignin();

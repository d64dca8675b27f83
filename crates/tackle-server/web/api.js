// The server's HTTP API, as the page uses it: JSON requests with the bearer token, and a
// run's events as server-sent events read from fetch (EventSource cannot send a token).

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export class Api {
  constructor(token) {
    this.token = token;
  }

  async request(method, path, body) {
    const headers = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = { detail: text };
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  me() { return this.request('GET', '/v1/me'); }
  setProfile(profile) { return this.request('PUT', '/v1/me', profile); }
  tools() { return this.request('GET', '/v1/tools'); }
  sessions() { return this.request('GET', '/v1/sessions'); }
  session(id) { return this.request('GET', `/v1/sessions/${encodeURIComponent(id)}`); }
  run(id) { return this.request('GET', `/v1/runs/${encodeURIComponent(id)}`); }
  start(body) { return this.request('POST', '/v1/runs', body); }
  decide(id, decisions) { return this.request('POST', `/v1/runs/${encodeURIComponent(id)}/decisions`, { decisions }); }
  cancel(id) { return this.request('POST', `/v1/runs/${encodeURIComponent(id)}/cancel`); }

  // Calls `onEvent(event, seq)` for each event after `after`, until the run settles (the
  // server ends the stream) or `signal` aborts. Returns the last sequence number seen.
  async follow(id, after, onEvent, signal) {
    const headers = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (after > 0) headers['last-event-id'] = String(after);
    const response = await fetch(`/v1/runs/${encodeURIComponent(id)}/events`, { headers, signal });
    if (!response.ok) {
      let problem = null;
      try { problem = await response.json(); } catch { /* not JSON */ }
      throw new ApiError(response.status, problem);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let last = after;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let seq = null;
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) seq = Number(line.slice(3).trim());
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (!data.length) continue; // a keep-alive comment
        let event;
        try {
          event = JSON.parse(data.join('\n'));
        } catch {
          continue;
        }
        if (Number.isFinite(seq)) last = seq;
        onEvent(event, last);
      }
    }
    return last;
  }
}

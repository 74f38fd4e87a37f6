import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { keyPlan } from 'build-time-data';
import { cabinetStyles } from './cabinet-styles.js';

/**
 * The log and the projection: the newest events of each topic (a click shows the event's outcome from
 * GET /commands/{eventId}, the event as the projectors read it (upcast, personal data opened) and the items of its
 * aggregate's partition), the projector's lag per partition in events and
 * in seconds (the age of the oldest event not applied yet, from the readiness check's data), updating, and the parked
 * keys with retry and discard through the operator endpoints.
 */
export class QwcCabinetLog extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = [cabinetStyles, css`
        .columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; }
        .topic h4 { margin: 10px 0 4px; font-family: monospace; }
        tr.event { cursor: pointer; }
        tr.event:hover td { background: var(--lumo-contrast-5pct); }
        .lag0 { color: var(--lumo-success-text-color); }
        .lagN { color: var(--lumo-error-text-color); font-weight: 600; }
        td.actions { white-space: nowrap; }
        .panel { border: 1px solid var(--lumo-contrast-20pct); border-radius: 6px; padding: 8px 12px; margin-bottom: 12px; }
    `];

    static properties = {
        _topics: { state: true },
        _lag: { state: true },
        _lagAt: { state: true },
        _behind: { state: true },
        _parked: { state: true },
        _selected: { state: true },
        _outcome: { state: true },
        _aggregate: { state: true },
        _action: { state: true },
        _error: { state: true },
    };

    connectedCallback() {
        super.connectedCallback();
        this._refreshEvents();
        this._refreshLag();
        this._refreshParked();
        // The lag updates every two seconds while the page is open; the events and parked keys on demand and slower.
        this._lagTimer = setInterval(() => this._refreshLag(), 2000);
        this._slowTimer = setInterval(() => { this._refreshEvents(); this._refreshParked(); }, 10000);
    }

    disconnectedCallback() {
        clearInterval(this._lagTimer);
        clearInterval(this._slowTimer);
        super.disconnectedCallback();
    }

    _refreshEvents() {
        this.jsonRpc.newestEvents({ perTopic: 8 })
            .then(response => this._topics = response.result.topics)
            .catch(error => this._error = error?.error?.message || String(error));
    }

    _refreshLag() {
        this.jsonRpc.projectionLag().then(response => {
            this._lag = response.result;
            this._lagAt = new Date().toLocaleTimeString();
        });
        // The seconds come from readiness (the projector check's data: "<seconds> s, <events> events" per partition),
        // under the same non-application root as this page (/q/dev-ui/... next to /q/health/ready). A 503 while a
        // partition is stuck still carries the data.
        const root = window.location.pathname.split('/dev-ui')[0];
        fetch(`${root}/health/ready`)
            .then(answer => answer.json())
            .then(health => this._behind = (health.checks || []).find(check => check.name === 'projector')?.data || {})
            .catch(() => this._behind = null);
    }

    /** The partition's time lag from readiness, as seconds, or null where this instance does not project it. */
    _seconds(row) {
        const entry = this._behind?.[`${row.topic}-${row.partition}`];
        return entry === undefined ? null : parseFloat(entry);
    }

    _refreshParked() {
        this.jsonRpc.parkedKeys().then(response => this._parked = response.result);
    }

    render() {
        return html`
            ${this._error ? html`<p class="error">${this._error}</p>` : ''}
            <div class="columns">
                <div>
                    <div class="bar"><h3>Newest events per topic</h3>
                        <button data-testid="refresh-events" @click=${() => { this._refreshEvents(); this._refreshParked(); }}>Refresh</button></div>
                    ${this._topics ? Object.entries(this._topics).map(([topic, events]) => this._topic(topic, events))
                        : html`<p class="muted">Reading the log…</p>`}
                </div>
                <div>
                    ${this._selected ? this._event() : html`<p class="muted">Click an event to see its outcome and its aggregate's items.</p>`}
                    ${this._lagTable()}
                </div>
            </div>
            ${this._parkedKeys()}`;
    }

    _topic(topic, events) {
        return html`<div class="topic" data-testid="topic" data-topic=${topic}>
            <h4>${topic}</h4>
            ${events.length === 0 ? html`<p class="muted">no events</p>` : html`
            <table>
                <thead><tr><th>Time</th><th>Type</th><th>Key</th><th>Event id</th></tr></thead>
                <tbody>${events.map(event => html`
                    <tr class="event ${this._selected === event ? 'selected' : ''}" data-testid="event" data-event-id=${event.id}
                        data-event-key=${event.key} @click=${() => this._select(event)}>
                        <td class="mono">${event.time || new Date(event.timestamp).toISOString()}</td>
                        <td>${event.type || event.headers?.cabinet_dlq_reason || ''}</td>
                        <td class="mono">${event.key}</td>
                        <td class="mono">${event.id}</td>
                    </tr>`)}
                </tbody>
            </table>`}
        </div>`;
    }

    _select(event) {
        this._selected = event;
        this._outcome = null;
        this._aggregate = null;
        if (event.id) {
            this.jsonRpc.outcome({ eventId: event.id }).then(response => this._outcome = response.result)
                .catch(error => this._outcome = { status: 'error', body: error?.error?.message || String(error) });
        }
        const partition = this._aggregatePartition(event);
        if (partition) {
            this.jsonRpc.query({ indexName: '', pkAttribute: keyPlan.indexes[0].pkAttribute, partitionKey: partition,
                                 cursor: '', limit: 25 })
                .then(response => this._aggregate = { partition, items: response.result.items });
        }
    }

    /**
     * The partition of the event's aggregate: the partition-key template with one id placeholder whose constant part
     * names the topic's aggregate (cabinet.customers: CUSTOMER#{customerId}), filled with the record key.
     */
    _aggregatePartition(event) {
        if (keyPlan.error || !event.key) return null;
        const noun = event.topic.substring(event.topic.lastIndexOf('.') + 1).toUpperCase().replace(/S$/, '');
        const template = keyPlan.partitions.map(p => p.pk)
            .find(pk => /^[A-Z]+#\{[a-zA-Z]+Id\}$/.test(pk) && pk.startsWith(noun + '#'));
        return template ? template.replace(/\{[a-zA-Z]+\}/, event.key) : null;
    }

    _event() {
        const event = this._selected;
        const outcome = this._outcome;
        return html`<div class="panel" data-testid="event-detail">
            <h3>${event.type || 'record'} <code>${event.id}</code></h3>
            <div class="muted">${event.topic} partition ${event.partition} offset ${event.offset}; key <code>${event.key}</code>${event.subject ? html`; subject <code>${event.subject}</code>` : ''}</div>
            <h3>Outcome (GET /commands/${event.id})</h3>
            ${outcome ? html`<div data-testid="outcome" data-status=${outcome.status}>
                    <b>${outcome.status}</b>
                    ${outcome.status === 404 ? html`<span data-testid="outcome-applied">: nothing recorded, so the projector applied it (or has not reached it yet)</span>` : ''}
                    <pre>${outcome.body}</pre></div>`
                : html`<p class="muted">asking…</p>`}
            <h3>Items of its aggregate ${this._aggregate ? html`(<code>${this._aggregate.partition}</code>)` : ''}</h3>
            <p class="muted">The items in the aggregate's partition now; the projector records no per-event write list, so
                items it wrote elsewhere (GSI entries are on these items; other partitions) are not listed.</p>
            ${this._aggregate ? html`<table data-testid="aggregate-items">
                    <tbody>${this._aggregate.items.map(item => html`<tr><td class="mono">${item[keyPlan.indexes[0].skAttribute]}</td>
                        <td><b>${item[keyPlan.typeAttribute]}</b></td></tr>`)}</tbody></table>`
                : html`<p class="muted">no partition-key template matches this topic's key</p>`}
            ${this._asRead(event)}
            <details><summary>Record, as the log holds it</summary><pre>${JSON.stringify(event.headers, null, 1)}\n${event.data}</pre></details>
        </div>`;
    }

    /** The event as the projectors read it: the current version, personal data opened (or the erased placeholder). */
    _asRead(event) {
        const read = event.read;
        if (!read) {
            return '';
        }
        if (read.problem) {
            return html`<h3>As the projector reads it</h3><p data-testid="as-read-problem">Not readable: ${read.problem}</p>`;
        }
        const upcast = read.type !== event.type;
        return html`<h3>As the projector reads it: <code data-testid="as-read-type">${read.type}</code>
                ${upcast ? html`<span class="muted" data-testid="as-read-upcast">(upcast from ${event.type})</span>` : ''}</h3>
            <pre data-testid="as-read-data">${JSON.stringify(JSON.parse(read.data), null, 1)}</pre>`;
    }

    _lagTable() {
        const oldest = this._behind?.oldestUnappliedEvent;
        return html`<h3>Projection lag per partition <span class="muted">(group offset vs log end, ${this._lagAt || '…'})</span></h3>
            ${oldest ? html`<p data-testid="oldest-unapplied">Oldest event not applied yet: <b>${oldest}</b></p>` : ''}
            ${this._lag ? html`<table data-testid="lag">
                <thead><tr><th>Topic</th><th>Partition</th><th>Log end</th><th>Committed</th><th>Lag</th><th>Behind</th></tr></thead>
                <tbody>${this._lag.filter(row => row.end > 0 || row.committed != null).map(row => {
                    const seconds = this._seconds(row);
                    return html`<tr>
                    <td class="mono">${row.topic}</td><td>${row.partition}</td><td>${row.end}</td>
                    <td>${row.committed ?? '–'}</td><td class=${row.lag === 0 ? 'lag0' : 'lagN'}>${row.lag}</td>
                    <td data-testid="lag-seconds" class=${seconds === null ? 'muted' : seconds === 0 ? 'lag0' : 'lagN'}>${seconds === null ? '–' : `${seconds.toFixed(1)} s`}</td></tr>`;
                })}
                </tbody></table>
                <p class="muted">Behind: the age of the partition's oldest event not applied yet, from /q/health/ready
                    (– where this instance does not project the partition).</p>
                <p class="muted">${this._lag.filter(row => row.end === 0 && row.committed == null).length} empty partition(s) not listed.</p>`
                : html`<p class="muted">…</p>`}`;
    }

    _parkedKeys() {
        const answer = this._parked;
        let keys = [];
        if (answer && answer.status === 200) {
            keys = JSON.parse(answer.body).items || [];
        }
        return html`<h3>Parked keys and dead letters <span class="muted">(GET /admin/parked-keys, as operator)</span></h3>
            ${this._action ? html`<div class="panel" data-testid="action-result"><b>${this._action.request}: ${this._action.status}</b><pre>${this._action.body}</pre></div>` : ''}
            ${answer && answer.status !== 200 ? html`<p class="error">${answer.status}: ${answer.body}</p>` : ''}
            ${keys.length === 0 ? html`<p class="muted" data-testid="no-parked-keys">No key is parked.</p>` : html`
            <table data-testid="parked-keys">
                <thead><tr><th>Key</th><th>Reason</th><th>Event</th><th></th></tr></thead>
                <tbody>${keys.map(key => html`<tr data-testid="parked-key">
                    <td class="mono">${key.topic} ${key.recordKey}<br><span class="muted">${key.id}</span></td>
                    <td>${key.reason}</td><td class="mono">${key.eventType}<br>${key.eventId}</td>
                    <td class="actions"><button @click=${() => this._recover('retry', key.id)}>Retry</button>
                        <button @click=${() => this._recover('first', key.id)}>Discard first</button>
                        <button @click=${() => this._recover('all', key.id)}>Discard all</button></td></tr>`)}
                </tbody></table>`}`;
    }

    _recover(action, id) {
        const call = action === 'retry' ? this.jsonRpc.retryParkedKey({ id })
            : this.jsonRpc.discardParkedKey({ id, events: action });
        call.then(response => { this._action = response.result; this._refreshParked(); this._refreshLag(); })
            .catch(error => this._action = { request: action, status: 'error', body: error?.error?.message || String(error) });
    }
}
customElements.define('qwc-cabinet-log', QwcCabinetLog);

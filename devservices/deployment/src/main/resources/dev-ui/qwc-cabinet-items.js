import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { keyPlan } from 'build-time-data';
import { cabinetStyles } from './cabinet-styles.js';

/**
 * Item collections, live: one partition key of the table, GSI1 or GSI2, its items in sort-key order (a Query on the
 * partition key, never a Scan), with each item's type, its other keys and its attributes; paged.
 */
export class QwcCabinetItems extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = [cabinetStyles, css`
        .keys { white-space: nowrap; }
        .attributes span { display: inline-block; margin-right: 10px; }
        .attributes b { color: var(--lumo-contrast-70pct); font-weight: 500; }
        input.pk { width: 28em; font-family: monospace; }
    `];

    static properties = {
        _index: { state: true },
        _partitionKey: { state: true },
        _items: { state: true },
        _pages: { state: true },
        _next: { state: true },
        _recent: { state: true },
        _error: { state: true },
        _loading: { state: true },
    };

    constructor() {
        super();
        this._indexes = keyPlan.error ? [] : keyPlan.indexes;
        this._index = this._indexes[0];
        this._partitionKey = '';
        this._items = null;
        this._pages = 0;
        this._next = null;
        this._recent = [];
    }

    connectedCallback() {
        super.connectedCallback();
        this._loadRecent();
    }

    _loadRecent() {
        this.jsonRpc.recentPartitions().then(response => this._recent = response.result);
    }

    render() {
        if (keyPlan.error) {
            return html`<p class="error">${keyPlan.error}</p>`;
        }
        return html`
            <div class="bar">
                <label>Index
                    <select data-testid="index" @change=${e => this._index = this._indexes[e.target.selectedIndex]}>
                        ${this._indexes.map(index => html`<option ?selected=${index === this._index}>${index.name}</option>`)}
                    </select>
                </label>
                <label><span>Partition key (<code>${this._index.pkAttribute}</code>)</span>
                    <input class="pk" data-testid="partition-key" list="cabinet-partition-keys" .value=${this._partitionKey}
                        placeholder=${this._examples()[0] || ''}
                        @input=${e => this._partitionKey = e.target.value}
                        @keydown=${e => { if (e.key === 'Enter') this._query(); }}>
                    <datalist id="cabinet-partition-keys">
                        ${this._recent.filter(r => r.indexName === (this._index.indexName || '')).map(r => html`<option value=${r.partitionKey}>recent</option>`)}
                        ${this._examples().map(template => html`<option value=${template}>template</option>`)}
                    </datalist>
                </label>
                <button class="primary" data-testid="query" @click=${() => this._query()}>Query</button>
                ${this._next ? html`<button data-testid="next-page" @click=${() => this._query(this._next)}>Next page</button>` : ''}
            </div>
            ${this._recent.length ? html`<div class="bar muted">Recent:
                ${this._recent.map(r => html`<a class="link" data-testid="recent" @click=${() => this._pick(r)}>${r.indexName ? r.indexName + ': ' : ''}${r.partitionKey}</a>`)}
            </div>` : ''}
            ${this._error ? html`<p class="error" data-testid="error">${this._error}</p>` : ''}
            ${this._loading ? html`<p class="muted">Querying…</p>` : ''}
            ${this._items ? this._table() : html`<p class="muted">Enter a partition key, such as <code>CUSTOMER#C001</code>, and Query: the items come in sort-key order, as the product reads them.</p>`}`;
    }

    _examples() {
        if (!this._index.partitions && !this._index.indexName) {
            return keyPlan.partitions.map(p => p.pk);
        }
        return (this._index.partitions || []).map(p => p.pk);
    }

    _pick(recent) {
        this._index = this._indexes.find(index => (index.indexName || '') === recent.indexName) || this._indexes[0];
        this._partitionKey = recent.partitionKey;
        this._query();
    }

    _query(cursor) {
        this._error = null;
        this._loading = true;
        const index = this._index;
        this.jsonRpc.query({
            indexName: index.indexName || '', pkAttribute: index.pkAttribute,
            partitionKey: this._partitionKey.trim(), cursor: cursor || '', limit: 25
        }).then(response => {
            this._loading = false;
            this._queried = index;
            this._queriedKey = this._partitionKey.trim();
            this._items = response.result.items;
            this._pages = cursor ? this._pages + 1 : 1;
            this._next = response.result.next;
            this._loadRecent();
        }).catch(error => {
            this._loading = false;
            this._error = error?.error?.message || String(error);
        });
    }

    _table() {
        const index = this._queried;
        const keyAttributes = this._indexes.flatMap(i => [i.pkAttribute, i.skAttribute]);
        const typeAttribute = keyPlan.typeAttribute;
        return html`
            <p class="muted" data-testid="result-summary">${this._items.length} item(s) on page ${this._pages} of
                <code>${index.name}</code> <code>${index.pkAttribute} = ${this._queriedKey}</code>, by <code>${index.skAttribute}</code> ascending${this._next ? '; more on the next page' : ''}.</p>
            <table data-testid="items">
                <thead><tr><th>#</th><th>${index.skAttribute}</th><th>Type</th><th>Other keys</th><th>Attributes</th></tr></thead>
                <tbody>${this._items.map((item, i) => html`
                    <tr data-testid="item" data-type=${item[typeAttribute]}>
                        <td>${i + 1}</td>
                        <td class="mono keys" data-testid="sort-key">${item[index.skAttribute]}</td>
                        <td data-testid="item-type"><b>${item[typeAttribute]}</b></td>
                        <td class="mono keys">${keyAttributes.filter(a => a !== index.pkAttribute && a !== index.skAttribute && item[a] !== undefined)
                            .map(a => html`<div>${a}: ${item[a]}</div>`)}</td>
                        <td class="attributes">${Object.entries(item).filter(([name]) => !keyAttributes.includes(name) && name !== typeAttribute)
                            .map(([name, value]) => html`<span><b>${name}</b>=${typeof value === 'object' ? JSON.stringify(value) : String(value)}</span>`)}</td>
                    </tr>`)}
                </tbody>
            </table>`;
    }
}
customElements.define('qwc-cabinet-items', QwcCabinetItems);

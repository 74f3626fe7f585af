// arbiter's results page: standings, charts, the match list and a replay
// viewer per game. Everything the page shows from the results is put in
// with textContent or attributes, never as HTML, so a bot named
// "<script>" shows as that text.
"use strict";
(function () {
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));

  // el builds an element: props.text, props.cls, props.title, props.data
  // (data-* attributes), props.attrs, props.on (listeners); kids are
  // elements or strings (as text).
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    props = props || {};
    if (props.text !== undefined) e.textContent = String(props.text);
    if (props.cls) e.className = props.cls;
    if (props.title) e.title = props.title;
    for (const [k, v] of Object.entries(props.data || {})) e.dataset[k] = String(v);
    for (const [k, v] of Object.entries(props.attrs || {})) e.setAttribute(k, String(v));
    for (const [k, v] of Object.entries(props.on || {})) e.addEventListener(k, v);
    if (props.style) Object.assign(e.style, props.style);
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  const clear = (e) => { e.replaceChildren(); return e; };
  const fmt = (x, d) => (x === null || x === undefined || !isFinite(x)) ? "–" : Number(x).toFixed(d || 0);
  const pct = (x) => (x === null || x === undefined || !isFinite(x)) ? "–" : (100 * x).toFixed(1) + "%";

  // normal fills in the lists Go leaves null when they are empty (a run
  // that has finished no match yet).
  function normal(x) {
    x.matches = x.matches || [];
    x.head_to_head = x.head_to_head || [];
    x.history = x.history || {};
    x.history.rounds = x.history.rounds || [];
    x.history.bots = x.history.bots || [];
    x.history.elo = x.history.elo || [];
    return x;
  }
  let site = normal(JSON.parse($("#site").textContent));
  const folder = document.body.dataset.folder || "";
  const live = document.body.dataset.live === "1";
  const inline = {};
  for (const s of $$("script.transcript")) inline[s.dataset.match] = s;

  const palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22", "#393b79", "#ad494a", "#637939", "#843c39", "#7b4173", "#3182bd"];
  // colour i: the palette's 16, then hues a golden angle apart (each
  // new one falls in the widest gap left), in three lightnesses: a colour
  // of its own for every bot, the same on every load.
  function colour(i) {
    if (i < palette.length) return palette[i];
    const k = i - palette.length;
    return `hsl(${((k * 137.50776405) % 360).toFixed(3)}, ${[70, 55, 85][k % 3]}%, ${[42, 55, 32][Math.floor(k / 3) % 3]}%)`;
  }
  const botColour = {};
  function colours() {
    site.stats.standings.forEach((s, i) => { botColour[s.bot] = colour(i); });
  }
  const colourOf = (bot) => botColour[bot] || "#555";
  const seatColour = colour;

  // ---- header ----
  function renderHeader() {
    document.title = site.tournament + " — arbiter";
    $("#title").textContent = site.tournament;
    // The count of matches and the ranking are said as `arbiter rank`
    // heads its standings (site.finished, site.ranked).
    const stages = site.stages || [];
    let s = `Game ${site.driver} "${site.game}", ` +
      (stages.length ? `in ${stages.length} stages (${stages.join(", ")})` : `format ${site.format}, ${site.players} seats a match`) +
      `. ${site.finished}. Ranked ${site.ranked}. Plan ${String(site.plan).slice(0, 12)}.`;
    if (site.shard) s += ` The standings of ${site.shard} count its own matches alone; arbiter merge ranks the tournament.`;
    if (site.stopped) s += ` Stopped (${site.stopped.rule}): ${site.stopped.reason}.`;
    for (const note of site.notes || []) s += ` Note: ${note}`;
    $("#summary").textContent = s;
    const ul = clear($("#skipped"));
    for (const note of [...(site.warnings || []), ...(site.skipped || [])]) ul.append(el("li", { text: note }));
  }

  // ---- standings ----
  let pair = [];
  // standingsTable fills table t with standings rows st in rank's
  // columns, and its Stage and its Grade each when some row has one (and
  // extra is set: the standings' own table), each bot's Elo interval
  // drawn to the table's own scale; click, when given, is what a click
  // on a row does with its bot.
  function standingsTable(t, st, extra, click) {
    // rank's columns: normal is rank's Normal, wins in matches without a
    // fault (the tie-break of tournaments rated by wins).
    const cols = ["rank", "bot", "elo", "interval", "games", "score", "matches", "points", "place", "wins", "normal", "faults"];
    const heads = ["#", "bot", "Elo", "95% interval", "games", "score", "matches", "points", "place", "wins", "normal", "faults"];
    // A tournament in stages without grades, or graded without stages,
    // has no empty column for the other.
    for (const c of ["stage", "grade"]) if (extra && st.some((s) => s[c])) { cols.push(c); heads.push(c); }
    t.append(el("thead", {}, el("tr", {}, heads.map((h) => el("th", { text: h, title: h === "normal" ? "wins in matches without a fault (rank's Normal)" : "" })))));
    let lo = Infinity, hi = -Infinity;
    for (const s of st) {
      if (s.elo === null) continue;
      lo = Math.min(lo, s.elo - (s.minus ?? 0)); hi = Math.max(hi, s.elo + (s.plus ?? 0));
    }
    if (!(hi > lo)) { lo = -100; hi = 100; }
    const x = (v) => (100 * (v - lo) / (hi - lo)).toFixed(2) + "%";
    const body = el("tbody");
    for (const s of st) {
      const bar = el("div", { cls: "ibar" });
      if (s.elo !== null) {
        const a = s.elo - (s.minus ?? 0), b = s.elo + (s.plus ?? 0);
        bar.append(el("span", { cls: "range", style: { left: x(a), width: `calc(${x(b)} - ${x(a)})`, background: colourOf(s.bot) } }),
          el("span", { cls: "mark", style: { left: x(s.elo) } }));
        bar.title = `${fmt(a)} … ${fmt(b)}`;
      }
      const cells = {
        rank: s.rank, bot: s.bot + (s.fill ? " (fill)" : "") + (s.disqualified ? " (DQ, " + s.disqualified.reason + (s.disqualified.match ? " in " + s.disqualified.match : "") + ")" : ""), elo: fmt(s.elo), games: s.games, score: pct(s.score),
        matches: s.matches, points: fmt(s.points, 2), place: fmt(s.place, 2) + (s.place_ci !== null && s.matches > 1 ? " ± " + fmt(s.place_ci, 2) : ""),
        wins: s.wins, normal: s.normal_wins ?? 0, faults: s.faults, stage: s.stage || "", grade: s.grade || "",
      };
      const tr = el("tr", { data: { bot: s.bot }, cls: click && pair.includes(s.bot) ? "picked" : "", on: click ? { click: () => click(s.bot) } : {} },
        cols.map((c) => c === "interval" ? el("td", { data: { col: c } }, bar) : el("td", { text: cells[c], data: { col: c } })));
      tr.children[1].prepend(el("span", { cls: "swatch", style: { background: colourOf(s.bot) } }));
      body.append(tr);
    }
    t.append(body);
  }
  // renderStageTables shows, under the standings of a tournament in
  // stages, what `arbiter rank` prints there: how each pool of the stages
  // that rank bots placed them, by its own matches alone (the standings'
  // columns count every stage), last stage first.
  function renderStageTables() {
    const box = clear($("#stage-tables"));
    for (const tb of site.stats.stage_tables || []) {
      const name = "stage " + tb.stage + (tb.group ? ", group " + tb.group : "");
      box.append(el("h3", { text: `How ${name} placed its bots: its own matches alone, ranked ${tb.ranked_by || ""}; bots still tied by Elo, then name` }));
      const t = el("table", { cls: "data stage-table", data: { stage: tb.stage, group: tb.group || "" } });
      standingsTable(t, tb.standings || [], false, null);
      box.append(t);
    }
    // The cuts of picks that Elo, then name, decided between bots the
    // stage's rating left tied, in rank's words: each cut's sentence is
    // stats.TiedCut.String, written into the data by Go, not worded here.
    const cuts = site.stats.tied_cuts || [];
    if (cuts.length) {
      box.append(el("h3", { text: "Cuts decided without a playoff (a stage plays none): tied bots a pick took by Elo, then name" }));
      const list = el("ul", { cls: "tied-cuts" });
      for (const c of cuts) list.append(el("li", { text: c.sentence }));
      box.append(list);
    }
  }
  function renderStandings() {
    const st = site.stats.standings;
    // A tournament in stages is ranked by the last stage each bot
    // reached, and may grade its ranking: columns of their own, as in
    // `arbiter rank`, when some bot has one.
    standingsTable(clear($("#standings-table")), st, true, (bot) => pick(bot));
    renderStageTables();
    // Groups still tied in placement, as `arbiter rank` says under its
    // standings.
    const ties = clear($("#ties"));
    for (const g of site.stats.ties || []) {
      ties.append(el("li", { text: (site.stats.playoffs_over ? "Still tied in placement after the last playoff: " : "Tied in placement, needs a playoff: ") + g.join(", ") }));
    }
    // Ties the game cannot seat, never played off, in rank's words
    // (cmd/arbiter unseatedText).
    for (const g of site.stats.ties_unseated || []) {
      ties.append(el("li", { text: `Tied in placement, not played off: ${g.join(", ")}: the game cannot seat ${g.length} bots in one match, so the tie stands` }));
    }
    // Ties of a tournament its stopping rule ended, never played off, in
    // rank's words (cmd/arbiter writeStats).
    for (const g of site.stats.ties_stopped || []) {
      ties.append(el("li", { text: `Tied in placement, not played off: ${g.join(", ")}: the stopping rule ended the tournament, so the tie stands` }));
    }
    // Bots that could not play, ranked behind those of their mean place
    // that played, in rank's words (cmd/arbiter notPlayedOffText).
    const why = "(in every match a start or build fault, or every answer replaced by the game's default)";
    for (const g of site.stats.not_played_off || []) {
      ties.append(el("li", { text: "Tied in placement, not played off: " + (g.length === 1
        ? `${g[0]} could not play ${why}, so it ranks behind the bots of its mean place that played, without a playoff; see its faults and defaults`
        : `${g.join(", ")} could not play ${why}, so a playoff would only repeat the tie; see their faults and defaults`) }));
    }
    // Ties a stage's playoff is still to settle, in rank's words
    // (cmd/arbiter writePlayoffsToCome).
    for (const pt of site.stats.playoffs_to_come || []) {
      for (const t of pt.ties || []) {
        const where = "stage " + pt.stage + (t.group ? ` (group ${t.group})` : "");
        ties.append(el("li", { text: `Tied in placement in ${where}, playoff ${pt.playoff} to come: ${t.bots.join(", ")}` }));
      }
    }
    renderMatrix($("#crosstable"), (i, j) => {
      const c = site.stats.crosstable[i][j];
      return c.wins + c.draws + c.losses ? `${c.wins}-${c.draws}-${c.losses}` : "";
    });
    renderMatrix($("#los"), (i, j) => pct(site.stats.los[i][j]));
    renderH2H();
  }
  function renderMatrix(t, cell) {
    const st = site.stats.standings;
    clear(t).append(el("thead", {}, el("tr", {}, el("th"), st.map((s, j) => el("th", { text: `${j + 1}`, title: s.bot })))));
    const body = el("tbody");
    st.forEach((s, i) => {
      body.append(el("tr", {}, el("th", { text: `${i + 1}. ${s.bot}` }),
        st.map((o, j) => i === j ? el("td", { cls: "diag" }) :
          el("td", { text: cell(i, j), data: { a: s.bot, b: o.bot }, on: { click: () => { pair = [s.bot, o.bot]; renderPicked(); address(pairHash()); } } }))));
    });
    t.append(body);
  }
  function pick(bot) {
    pair = pair.includes(bot) ? pair.filter((b) => b !== bot) : [...pair, bot].slice(-2);
    renderPicked();
    address(pairHash());
  }
  // renderPicked marks the bots picked in the standings and shows their
  // head-to-head. Nothing else of the tab depends on the pick: drawn again
  // at each click, the crosstable and LOS matrix of 200 bots (80,000
  // cells) took seconds.
  function renderPicked() {
    for (const tr of $("#standings-table").querySelectorAll("tbody tr")) tr.classList.toggle("picked", pair.includes(tr.dataset.bot));
    renderH2H();
  }
  function renderH2H() {
    const box = clear($("#h2h"));
    if (pair.length !== 2) return;
    let [a, b] = pair;
    // An address (#h2h=A,B) may name any two: say what is wrong with it.
    const known = new Set(site.stats.standings.map((s) => s.bot));
    const unknown = pair.filter((x) => !known.has(x));
    if (unknown.length) {
      box.append(el("p", { text: unknown.map((x) => `There is no bot named ${x} in this tournament.`).join(" ") + " Pick two of its bots in the standings." }));
      return;
    }
    if (a === b) { box.append(el("p", { text: `${a} is named twice: pick two different bots in the standings.` })); return; }
    let h = (site.head_to_head || []).find((x) => x.a === a && x.b === b);
    let flip = false;
    if (!h) { h = (site.head_to_head || []).find((x) => x.a === b && x.b === a); flip = true; }
    if (!h) { box.append(el("p", { text: `${a} and ${b} have not played each other.` })); return; }
    const w = flip ? h.wdl.losses : h.wdl.wins, l = flip ? h.wdl.wins : h.wdl.losses;
    const e = h.estimate, sign = flip ? -1 : 1;
    // rank -vs's LOS, from the estimate of their games (not BayesElo's
    // of the LOS matrix); from b's side, the probability of the other
    // outcome; null when rank -vs prints none.
    const los = e.los === null || e.los === undefined ? null : flip ? 1 - e.los : e.los;
    // An Elo the data holds as null is infinite when the score is 1 or 0
    // (every game won, or lost; rank -vs prints ±Inf), else unknown.
    const elo = (x) => x !== null && x !== undefined ? fmt(sign * x, 1)
      : typeof e.score !== "number" || e.score > 0 && e.score < 1 ? "–" : (e.score >= 1) === (sign > 0) ? "+∞" : "−∞";
    box.append(el("h3", { text: `Head-to-head: ${a} vs ${b}` }),
      el("table", { cls: "data", attrs: { id: "h2h-table" } }, el("tbody", {},
        el("tr", {}, el("th", { text: "games (W-D-L)" }), el("td", { text: `${w}-${h.wdl.draws}-${l}` })),
        el("tr", {}, el("th", { text: "model" }), el("td", { text: `${e.model}, ${e.n} ${e.model === "pentanomial" ? "pairs" : "games"}` + (h.unpaired ? `, ${h.unpaired} unpaired` : "") })),
        el("tr", {}, el("th", { text: `Elo of ${a} over ${b}` }), el("td", { text: `${elo(e.elo)} ± ${fmt(e.elo_error, 1)}` })),
        el("tr", {}, el("th", { text: "nElo" }), el("td", { text: `${elo(e.nelo)} ± ${fmt(e.nelo_error, 1)}` })),
        el("tr", {}, el("th", { text: `LOS (${a} stronger)` }), el("td", { text: pct(los) })),
        el("tr", {}, el("th", { text: `SPRT ${h.sprt.model || "normalized"} [${h.sprt.elo0 ?? 0}, ${h.sprt.elo1 ?? 5}], α ${h.sprt.alpha}, β ${h.sprt.beta}` }),
          el("td", { text: `LLR ${fmt(h.sprt_result.llr, 2)} in [${fmt(h.sprt_result.lower, 2)}, ${fmt(h.sprt_result.upper, 2)}]: ${h.sprt_result.decision}` + (flip ? " (from " + b + "'s side)" : "") })))),
      el("p", {}, el("a", { text: `their matches`, attrs: { href: `#matches&bot=${encodeURIComponent(a)}&vs=${encodeURIComponent(b)}` }, on: { click: () => theirMatches(a, b) } })));
  }
  // theirMatches filters the match list to the matches of bots a and b
  // together, and draws it (the link then shows the tab).
  function theirMatches(a, b) {
    $("#f-bot").value = a; $("#f-vs").value = b; $("#f-round").value = ""; $("#f-fault").value = "";
    matchesDrawn = true;
    renderMatches();
  }

  // ---- charts ----
  let charts = [];
  let chartsDrawn = false;
  function width(e) { return Math.max(320, Math.min(1000, e.clientWidth || 900)); }
  // shown keeps the labels of a chart's x axis as it drew them on its
  // canvas, in the chart's data-x-ticks (JSON), where they can be read.
  function shown(u, labels) { u.root.dataset.xTicks = JSON.stringify(labels); return labels; }
  // roundAxis is an x axis of rounds, which are whole: its ticks step by
  // whole rounds (1, 2, 5, 10, ...), never 0.5 or 1.2.
  const wholeSteps = [1, 2, 5].flatMap((k) => [1, 10, 100, 1000, 10000, 100000].map((d) => k * d)).sort((a, b) => a - b);
  const roundAxis = () => ({ label: "round", incrs: wholeSteps, values: (u, splits) => shown(u, splits.map((v) => String(v))) });
  // fitLabel cuts a bot's name to the px it has under its bar, with "…",
  // measured in the font that axis (a uPlot axis) draws it with, in the
  // canvas's pixels (uPlot.pxRatio to a CSS px): uPlot's own font, not a
  // copy of it that could differ. The legend names the bar's bot in full
  // as the pointer is on it.
  const measure = document.createElement("canvas").getContext("2d");
  function fitLabel(name, px, axis) {
    measure.font = axis.font[0];
    const room = px * uPlot.pxRatio;
    if (measure.measureText(name).width <= room) return name;
    let n = name.length;
    while (n > 1 && measure.measureText(name.slice(0, n) + "…").width > room) n--;
    return name.slice(0, n) + "…";
  }
  // fitLabels are the labels of u's x axis at splits sp, each bot's
  // name fitted under its bar; the chart keeps the font they were fitted
  // in, in its data-x-font, where it can be read.
  function fitLabels(u, sp, bots) {
    u.root.dataset.xFont = u.axes[0].font[0];
    return shown(u, sp.map((i) => fitLabel(bots[i] ?? "", u.bbox.width / uPlot.pxRatio / bots.length - 8, u.axes[0])));
  }
  function drawCharts() {
    for (const c of charts) c.destroy();
    charts = [];
    chartsDrawn = true;
    const bots = site.stats.standings.map((s) => s.bot);
    const h = site.history;
    const series = (names) => [{}].concat(names.map((n) => ({ label: n, stroke: colourOf(n), width: 2, points: { show: true, size: 4 }, spanGaps: true })));
    const box1 = clear($("#chart-rating"));
    if (h.rounds.length) {
      charts.push(new uPlot({ width: width(box1), height: 280, scales: { x: { time: false } }, series: series(h.bots),
        axes: [roundAxis(), { label: "Elo" }] }, [h.rounds, ...h.elo], box1));
    } else box1.append(el("p", { cls: "hint", text: "no finished round yet" }));

    // time per answer: sum of clock over sum of answers, per bot and round
    const rounds = [...new Set(site.matches.map((m) => m.round))].sort((a, b) => a - b);
    const ri = new Map(rounds.map((r, i) => [r, i]));
    const tsum = bots.map(() => rounds.map(() => 0)), asum = bots.map(() => rounds.map(() => 0));
    const bi = new Map(bots.map((b, i) => [b, i]));
    for (const m of site.matches) {
      m.seats.forEach((s, k) => {
        const i = bi.get(s.bot); if (i === undefined || !m.answers || !m.answers[k]) return;
        tsum[i][ri.get(m.round)] += s.time_ms; asum[i][ri.get(m.round)] += m.answers[k];
      });
    }
    const tdata = [rounds, ...bots.map((b, i) => rounds.map((r, j) => asum[i][j] ? tsum[i][j] / asum[i][j] : null))];
    const box2 = clear($("#chart-time"));
    if (rounds.length) charts.push(new uPlot({ width: width(box2), height: 280, scales: { x: { time: false } }, series: series(bots),
      axes: [roundAxis(), { label: "ms per answer" }] }, tdata, box2));

    // faults by kind, stacked bars per bot
    const kinds = [];
    const count = {};
    // the answers replaced as the standings count them (Go's m.replaced):
    // none for a bot that never started or was never built
    for (const m of site.matches) m.seats.forEach((s, i) => {
      const add = (k, n) => { if (!kinds.includes(k)) kinds.push(k); count[k] = count[k] || {}; count[k][s.bot] = (count[k][s.bot] || 0) + n; };
      if (s.fault) add(s.fault, 1);
      if (m.replaced && m.replaced[i]) add("default answers", m.replaced[i]);
    });
    const box3 = clear($("#chart-faults"));
    if (!kinds.length) box3.append(el("p", { cls: "hint", text: "No faults." }));
    else {
      const xs = bots.map((_, i) => i);
      const raw = kinds.map((k) => bots.map((b) => count[k][b] || 0));
      const stacked = raw.map((_, k) => bots.map((_, i) => raw.slice(k).reduce((s, r) => s + r[i], 0)));
      const bars = uPlot.paths.bars({ size: [0.6, 80] });
      charts.push(new uPlot({
        width: width(box3), height: 280, scales: { x: { time: false, range: [-0.5, bots.length - 0.5] }, y: { range: (u, a, b) => [0, Math.max(1, b)] } },
        series: [{ label: "bot", value: (u, v) => v === null ? "" : bots[v] ?? "" }].concat(kinds.map((k, i) => ({
          label: k, fill: palette[(i + 3) % palette.length], stroke: palette[(i + 3) % palette.length], paths: bars, points: { show: false },
          value: (u, v, si, idx) => idx === null ? "" : raw[si - 1][idx],
        }))),
        axes: [{ splits: () => xs, values: (u, sp) => fitLabels(u, sp, bots) }, { label: "count" }],
      }, [xs, ...stacked], box3));
    }

    // score distribution
    const scores = [...new Set(site.matches.flatMap((m) => m.seats.map((s) => s.score)))].sort((a, b) => a - b);
    let edges = scores;
    if (scores.length > 40) {
      const lo = scores[0], hi = scores[scores.length - 1], w = (hi - lo) / 30;
      edges = Array.from({ length: 31 }, (_, i) => lo + i * w);
    }
    const bin = (v) => { let i = 0; while (i + 1 < edges.length && edges[i + 1] <= v) i++; return i; };
    const dist = bots.map(() => edges.map(() => 0));
    for (const m of site.matches) m.seats.forEach((s) => { const i = bi.get(s.bot); if (i !== undefined) dist[i][bin(s.score)]++; });
    const box4 = clear($("#chart-scores"));
    if (edges.length) charts.push(new uPlot({ width: width(box4), height: 280, scales: { x: { time: false } },
      series: series(bots).map((s, i) => i ? Object.assign(s, { paths: uPlot.paths.stepped({ align: 1 }) }) : s),
      axes: [{ label: scores.length > 40 ? "score (binned)" : "score" }, { label: "matches" }] }, [edges, ...dist], box4));
  }

  // ---- match list ----
  // wanted is each filter's value an address asked for (route) or the
  // reader chose: one no match has (yet: a shared #matches&fault=time,
  // or a live run's) is an option all the same, not dropped.
  const wanted = {};
  function renderFilters() {
    const keep = (sel, values, key) => {
      const v = sel.value;
      const w = wanted[key] || "";
      const fixed = $$("option", sel).filter((o) => o.value === "" || o.value === "*");
      if (w && w !== "*" && !values.map(String).includes(w)) values = [...values, w];
      clear(sel).append(...fixed, ...values.map((x) => el("option", { text: x, attrs: { value: x } })));
      sel.value = values.map(String).includes(v) || v === "*" ? v : "";
    };
    keep($("#f-bot"), site.stats.standings.map((s) => s.bot), "bot");
    keep($("#f-vs"), site.stats.standings.map((s) => s.bot), "vs");
    keep($("#f-round"), [...new Set(site.matches.map((m) => m.round))].sort((a, b) => a - b), "round");
    keep($("#f-fault"), [...new Set(site.matches.flatMap((m) => m.seats.map((s) => s.fault).filter(Boolean)))].sort(), "fault");
  }
  function renderMatches() {
    const bot = $("#f-bot").value, vs = $("#f-vs").value, round = $("#f-round").value, fault = $("#f-fault").value;
    const rows = site.matches.filter((m) =>
      (!bot || m.seats.some((s) => s.bot === bot)) && (!vs || m.seats.some((s) => s.bot === vs)) && (!round || String(m.round) === round) &&
      (!fault || m.seats.some((s) => fault === "*" ? s.fault : s.fault === fault)));
    $("#f-count").textContent = `${rows.length} of ${site.matches.length} matches`;
    const t = clear($("#match-table"));
    t.append(el("thead", {}, el("tr", {}, ["match", "round", "seats: bot score (fault)", "time"].map((h) => el("th", { text: h })))));
    const body = el("tbody");
    for (const m of rows) {
      body.append(el("tr", { data: { match: m.match } },
        el("td", {}, el("a", { text: m.match, attrs: { href: `#match=${encodeURIComponent(m.match)}&step=0` } })),
        el("td", { text: m.round }),
        el("td", {}, m.seats.map((s) => el("span", { cls: "seat" + (s.fault ? " faulty" : ""), title: s.detail || "" },
          el("span", { cls: "swatch", style: { background: colourOf(s.bot) } }), `${s.bot} ${fmt(s.score, Number.isInteger(s.score) ? 0 : 2)}` + (s.fault ? ` (${s.fault})` : "")))),
        el("td", { text: `${(m.elapsed_ms / 1000).toFixed(1)} s` })));
    }
    t.append(body);
    // Matches without a result open their replay as far as their
    // transcript goes.
    const running = clear($("#running"));
    if ((site.running || []).length) {
      running.append("Without a result yet (playing, or cut off): ");
      site.running.forEach((id, i) => running.append(i ? ", " : "", el("a", { text: id, attrs: { href: `#match=${encodeURIComponent(id)}&step=0` } })));
      running.append(".");
    }
  }

  // ---- transcripts ----
  const loaded = {};
  const waiting = {};
  window.arbiterTranscript = async function (id, events, encoding) {
    if (encoding === "gzip") {
      try {
        const bytes = Uint8Array.from(atob(events), (c) => c.charCodeAt(0));
        events = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
      } catch (e) {
        for (const f of waiting[id] || []) f.reject(new Error(`the transcript of ${id} cannot be inflated: ${e.message}`));
        delete waiting[id];
        return;
      }
    }
    loaded[id] = events;
    for (const f of waiting[id] || []) f.resolve(events);
    delete waiting[id];
  };
  // transcript loads a match's transcript, once; again loads it anew (a
  // live page's, once more, of a match followed that has its result now).
  function transcript(id, again) {
    if (again) delete loaded[id];
    if (loaded[id] !== undefined) return Promise.resolve(loaded[id]);
    if (inline[id]) return Promise.resolve(loaded[id] = JSON.parse(inline[id].textContent));
    if (!folder) return Promise.reject(new Error(`the transcript of ${id} is not in this page`));
    return new Promise((resolve, reject) => {
      const first = !waiting[id];
      (waiting[id] = waiting[id] || []).push({ resolve, reject });
      if (!first) return;
      const s = document.createElement("script");
      // The folder is a path (the page's name, of any characters, and
      // -matches): each of its segments is encoded, as the id is.
      s.src = `${folder.split("/").map(encodeURIComponent).join("/")}/${encodeURIComponent(id)}.js` + (again ? `?at=${Date.now()}` : "");
      s.onload = () => s.remove();
      s.onerror = () => {
        s.remove();
        for (const f of waiting[id] || []) f.reject(new Error(`the transcript of ${id} (${s.src}) could not be loaded`));
        delete waiting[id];
      };
      document.head.append(s);
    });
  }

  // parse reads a transcript: JSON lines of {t, seat, send|recv} or
  // {t, event, data}; what it cannot read is noted.
  function parse(text, notes) {
    const recs = [], bad = [];
    parseLines(text, 0, recs, bad);
    noteBad(bad, notes);
    return recs;
  }
  // parseLines appends the records of text's lines to recs, and the
  // numbers of those that are not JSON to bad, its first line being line
  // first + 1 of the transcript.
  function parseLines(text, first, recs, bad) {
    text.split("\n").forEach((line, i) => {
      if (!line.trim()) return;
      try { recs.push(JSON.parse(line)); } catch (e) { bad.push(first + i + 1); }
    });
  }
  function noteBad(bad, notes) {
    if (bad.length) notes.push(`${bad.length} line(s) of the transcript are not JSON and were skipped (line ${bad.slice(0, 5).join(", ")}${bad.length > 5 ? ", …" : ""}); a torn last line means the match was still being written.`);
  }

  // A live page follows a match being played by reading its lines as
  // they come (transcripts/ID.jsonl): follows[id] holds the records of
  // the whole lines read, how many lines they are, and offset, the byte
  // after the last; each look asks for the bytes from offset - 1 on (a
  // Range request), which must begin with the newline that ended the last
  // line read, and reads the whole lines that follow. A torn last line
  // (the run writing it) is left for the next look. The transcript is
  // read again whole when it is shorter than what was read (416: the
  // match begun again), when the byte before offset is not a newline (a
  // transcript begun again and grown past offset since the last look), and
  // when the server sends it whole.
  const follows = {};
  function followed(id) {
    const f = follows[id] || (follows[id] = { offset: 0, lines: 0, recs: [], bad: [], busy: null });
    if (!f.busy) {
      f.busy = readOn(id, f).finally(() => {
        f.busy = null;
        // Tests wait for a look to be done on this.
        document.body.dataset.followReads = String((+document.body.dataset.followReads || 0) + 1);
      });
    }
    return f.busy;
  }
  async function readOn(id, f) {
    const url = `${folder.split("/").map(encodeURIComponent).join("/")}/${encodeURIComponent(id)}.jsonl`;
    for (let whole = !f.offset; ; whole = true) {
      const res = await fetch(url, { cache: "no-store", headers: whole ? {} : { Range: `bytes=${f.offset - 1}-` } });
      let bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status === 206 && !whole) {
        const m = /^bytes (\d+)-\d+\/(\d+)$/.exec(res.headers.get("Content-Range") || "");
        if (!m || +m[1] !== f.offset - 1 || +m[2] < f.offset || bytes[0] !== 10) continue;
        bytes = bytes.subarray(1);
      } else if (res.status === 416 && !whole) {
        continue;
      } else if (res.status === 200) {
        Object.assign(f, { offset: 0, lines: 0, recs: [], bad: [] });
      } else {
        throw new Error(`the transcript of ${id} (${url}) could not be loaded: ${res.status} ${new TextDecoder().decode(bytes).trim().slice(0, 200)}`);
      }
      const end = bytes.lastIndexOf(10) + 1;
      const text = new TextDecoder().decode(bytes.subarray(0, end));
      parseLines(text, f.lines, f.recs, f.bad);
      f.lines += end ? text.split("\n").length - 1 : 0;
      f.offset += end;
      return f;
    }
  }

  // ---- replays ----
  // A viewer turns the transcript's game events into steps: init(match)
  // makes the state, on[kind](state, data, push) changes it and calls
  // push(label, extra) for every step; draw(view, state, match) shows a
  // step's state. perMove says that the game runs a process per move,
  // whose times the transcript does not hold.
  const suitSym = { C: "♣", D: "♦", H: "♥", S: "♠", c: "♣", d: "♦", h: "♥", s: "♠" };
  function card(c, cls) {
    const s = String(c), suit = s.slice(-1), rank = s.slice(0, -1).toUpperCase();
    const red = "DHdh".includes(suit) && suit !== "";
    return el("span", { cls: "card" + (red ? " red" : "") + (cls ? " " + cls : ""), data: { card: s } }, rank + (suitSym[suit] || suit));
  }
  function cards(list, cls) { return el("span", { cls: "cards" }, (list || []).map((c) => card(c, cls))); }
  const without = (hand, c) => { const i = hand.indexOf(c); return i < 0 ? hand : hand.slice(0, i).concat(hand.slice(i + 1)); };

  // planowanieCuts splits the lines since the last step among the cards
  // of a trick, order being the seats in the order they played: cuts[i]
  // is where card i's lines end. The lines come in rounds, every seat's
  // commands then every seat's answers (docs/events.md); a seat is asked
  // for its card with a gen_move that goes out with the round before (the
  // declarations, or the play of the card before), so card i's lines end
  // with the round of its seat's gen_move. The round of the trick's last
  // play, which asks the trick's winner to lead the next one, waits for
  // that card; at the end of a deal, when it asks no one, it goes with
  // the trick's last card.
  function planowanieCuts(pending, order) {
    const rounds = []; // [start, end, seats asked for a move]
    pending.forEach((l, i) => {
      if (!rounds.length || l.send !== undefined && pending[i - 1].send === undefined) rounds.push([i, i, new Set()]);
      const r = rounds[rounds.length - 1];
      r[1] = i + 1;
      if (l.send !== undefined && /^gen_move\b/.test(l.send)) r[2].add(l.seat);
    });
    const cuts = [];
    let next = 0, cut = 0;
    for (const seat of order) {
      const k = rounds.findIndex((r, j) => j >= next && r[2].has(seat));
      if (k >= 0) { cut = rounds[k][1]; next = k + 1; }
      cuts.push(cut);
    }
    while (next < rounds.length && !rounds[next][2].size) cut = rounds[next++][1];
    if (cuts.length) cuts[cuts.length - 1] = cut;
    return cuts;
  }

  const viewers = {};
  viewers.planowanie = {
    gtp: true, // answers are GTP responses, ended by an empty line
    // plays are the cards of the trick not closed by a trick event yet,
    // as the play commands told the bots (seat, card), shown is how many
    // of them have their step (see flush).
    init: (m) => ({ n: m.seats.length, deal: 0, hands: [], declared: null, won: [], table: [], scores: m.seats.map(() => 0), trick: 0, leader: 0, winner: -1, plays: [], shown: 0 }),
    // line notes each card played: the referee tells every seat `play
    // SEAT CARD`, in seat order, once the card is judged legal; only a
    // finished trick has its trick event.
    line(s, r) {
      const p = r.send !== undefined && /^play (\d+) (\S+)$/.exec(r.send);
      if (!p) return;
      const last = s.plays[s.plays.length - 1];
      if (!last || last.seat !== +p[1] || last.card !== p[2]) s.plays.push({ seat: +p[1], card: p[2] });
    },
    // flush makes a step of each card of a trick left unfinished (by a
    // fault, or a transcript that goes no further: a match being played)
    // that has none yet, each with the lines before its play went out.
    flush(s, push, pending) {
      for (const p of s.plays.slice(s.shown)) {
        if (!s.shown) { s.trick++; s.leader = p.seat; s.winner = -1; s.table = s.table.map(() => null); }
        s.shown++;
        s.table[p.seat] = p.card; s.hands[p.seat] = without(s.hands[p.seat] || [], p.card);
        const k = pending.findIndex((l) => l.send === `play ${p.seat} ${p.card}`);
        push(`deal ${s.deal}, trick ${s.trick}: seat ${p.seat} plays ${p.card}`, { seat: p.seat, take: Math.max(0, k) });
      }
    },
    on: {
      deal(s, d, push) {
        Object.assign(s, { deal: d.deal, hands: d.hands.map((h) => h.slice()), declared: null, won: d.hands.map(() => 0), table: d.hands.map(() => null), trick: 0, leader: d.leader, winner: -1, plays: [], shown: 0 });
        push(`deal ${d.deal}: ${d.cards} card(s) each, seat ${d.leader} leads`);
      },
      declare(s, d, push) { s.declared = d.declared.slice(); push(`deal ${d.deal}: declarations ${d.declared.join(" ")}`); },
      // One trick event, a step per card, each with the lines that lead
      // to it (see planowanieCuts).
      trick(s, d, push, notes, pending) {
        s.table = s.table.map(() => null);
        s.trick = d.trick; s.leader = d.leader; s.winner = -1; s.plays = []; s.shown = 0;
        const order = d.cards.map((_, i) => (d.leader + i) % d.cards.length);
        const cuts = planowanieCuts(pending, order);
        for (let i = 0; i < order.length; i++) {
          const seat = order[i], c = d.cards[seat];
          s.table[seat] = c; s.hands[seat] = without(s.hands[seat] || [], c);
          if (i === order.length - 1) { s.winner = d.winner; s.won[d.winner]++; }
          push(`deal ${d.deal}, trick ${d.trick}: seat ${seat} plays ${c}` + (i === order.length - 1 ? `; seat ${d.winner} takes the trick` : ""),
            { seat, take: cuts[i] - (i ? cuts[i - 1] : 0) });
        }
      },
      deal_score(s, d, push) { s.scores = d.scores.slice(); push(`deal ${d.deal} scored: ${d.points.join(" ")} (totals ${d.scores.join(" ")})`); },
      end(s, d, push, notes, pending) {
        this.flush(s, push, pending);
        s.scores = d.scores.slice(); s.table = s.table.map(() => null); push(`end: scores ${d.scores.join(" ")}`);
      },
    },
    draw(v, s, m) {
      const seats = m.seats.map((seat, i) => el("div", { cls: "hand-box" + (s.winner === i ? " winner" : ""), data: { seat: i } },
        el("div", { cls: "who" }, el("span", { cls: "swatch", style: { background: seatColour(i) } }), `seat ${i}: ${seat.bot}`),
        el("div", { text: `declared ${s.declared ? s.declared[i] : "?"} · tricks ${s.won[i] ?? 0} · score ${s.scores[i] ?? 0}` }),
        el("div", { cls: "hand" }, cards(s.hands[i])),
        el("div", { cls: "played" }, s.table[i] ? card(s.table[i], "on-table") : el("span", { cls: "empty", text: "—" }))));
      v.append(el("div", { cls: "card-table" }, el("div", { cls: "center", text: s.deal ? `deal ${s.deal}` + (s.trick ? `, trick ${s.trick}` : "") : "" }), seats));
    },
  };
  viewers.euchre = {
    perMove: true, // every decision is a process of its own
    // posSeat is each position's seat: two seats play positions 0, 2 and
    // 1, 3; four bots sit as the match's partners event says.
    init: (m) => ({ hand: 0, dealer: 0, hands: [[], [], [], []], upcard: "", trump: "", maker: -1, alone: -1, table: [null, null, null, null], tricks: [0, 0], points: [0, 0], bids: [], winner: -1, posSeat: [0, 1, 0, 1] }),
    on: {
      partners(s, d) { s.posSeat = d.seats.slice(); },
      deal(s, d, push) {
        Object.assign(s, { hand: d.hand, dealer: d.dealer, hands: d.hands.map((h) => h.slice()), upcard: d.upcard, trump: "", maker: -1, alone: -1, table: [null, null, null, null], tricks: [0, 0], bids: [], winner: -1 });
        push(`hand ${d.hand}: position ${d.dealer} deals, upcard ${d.upcard}`);
      },
      bidding(s, d, push) { s.bids = d.decisions.slice(); push(`hand ${d.hand}: ${d.round} ${d.decisions.join(" ")}` + (d.by >= 0 ? `, decided by position ${d.by}` : ", all passed")); },
      discard(s, d, push) { s.hands[d.dealer] = without(s.hands[d.dealer].concat([d.upcard]), d.discarded); s.upcard = ""; push(`hand ${d.hand}: dealer picks up ${d.upcard}, discards ${d.discarded}`); },
      trump(s, d, push) { Object.assign(s, { trump: d.trump, maker: d.maker, alone: d.alone }); push(`hand ${d.hand}: trump ${suitSym[d.trump] || d.trump}, made by position ${d.maker}` + (d.alone >= 0 ? `, position ${d.alone} alone` : "")); },
      thrown_in(s, d, push) { push(`hand ${d.hand}: thrown in`); },
      // One trick event, a step per card, each with the lines up to the
      // decision that played it (its turn, and a default that replaced
      // it); the decisions that tell every position the trick come after
      // the event, and go with the next step.
      trick(s, d, push, notes, pending) {
        s.table = [null, null, null, null]; s.winner = -1;
        d.cards.forEach((c, i) => {
          const pos = (d.leader + i) % 4;
          if (c === "p") return;
          s.table[pos] = c; s.hands[pos] = without(s.hands[pos], c);
          const last = d.cards.slice(i + 1).every((x) => x === "p");
          if (last) { s.winner = d.winner; s.tricks[d.winner % 2]++; }
          // push takes the lines it is given out of pending: the search
          // starts at 0 for every card.
          let cut = 0;
          const k = pending.findIndex((l) => l.pos === pos && l.phase === "turn" && l.recv !== undefined);
          if (k >= 0) {
            cut = k + 1;
            while (cut < pending.length && pending[cut].note !== undefined && pending[cut].pos === pos) cut++;
          }
          if (last) cut = pending.length;
          push(`hand ${d.hand}, trick ${d.trick}: position ${pos} plays ${c}` + (last ? `; position ${d.winner} takes it` : ""),
            { seat: s.posSeat[pos], take: cut });
        });
      },
      hand_score(s, d, push) { s.points = d.points.slice(); push(`hand ${d.hand}: tricks ${d.tricks.join("-")}, scored ${d.scored.join("-")}, game ${d.points.join("-")}`); },
      end(s, d, push) { s.points = d.points.slice(); push(`end: ${d.points.join("-")}, ` + (d.winner >= 0 ? `team ${d.winner} wins` : "a draw")); },
      decision() { },
    },
    draw(v, s, m) {
      const boxes = [0, 1, 2, 3].map((pos) => {
        const si = s.posSeat[pos], seat = m.seats[si];
        return el("div", { cls: "hand-box" + (s.winner === pos ? " winner" : "") + (s.alone >= 0 && s.alone !== pos && s.alone % 2 === pos % 2 ? " out" : ""), data: { seat: si, position: pos } },
          el("div", { cls: "who" }, el("span", { cls: "swatch", style: { background: seatColour(si) } }), `position ${pos}: ${seat.bot}` + (pos === s.dealer ? " (dealer)" : "") + (pos === s.maker ? " (maker)" : "")),
          el("div", { cls: "hand" }, cards(s.hands[pos])),
          el("div", { cls: "played" }, s.table[pos] ? card(s.table[pos], "on-table") : el("span", { cls: "empty", text: "—" })));
      });
      v.append(el("div", { cls: "card-table euchre" },
        el("div", { cls: "center" }, `hand ${s.hand}`, s.upcard ? el("span", {}, " · upcard ", card(s.upcard)) : "",
          s.trump ? ` · trump ${suitSym[s.trump] || s.trump}` : "", ` · tricks ${s.tricks.join("-")} · game ${s.points.join("-")}`),
        boxes));
    },
  };
  function grid(rows, cols, cell) {
    const g = el("div", { cls: "board", style: { gridTemplateColumns: `repeat(${cols}, 1fr)`, width: `min(100%, ${Math.max(cols * 14, 200)}px, ${cols * 36}px)` } });
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) g.append(cell(r, c));
    return g;
  }
  viewers.bricks = {
    init: (m) => ({ n: 0, cells: [], last: [] }),
    board(s, msg) {
      const parts = String(msg).split("_");
      const n = parseInt(parts[0], 10);
      if (!(n > 0 && n <= 999)) return;
      s.n = n; s.cells = new Array(n * n).fill(-1); s.last = [];
      for (const p of parts.slice(1)) { const [x, y] = p.split("x").map(Number); if (x >= 0 && y >= 0 && x < n && y < n) s.cells[y * n + x] = -2; }
    },
    line(s, rec) { if (!s.n && rec.send !== undefined && /^\d+(_-?\d+x-?\d+)*$/.test(rec.send)) this.board(s, rec.send); },
    on: {
      move(s, d, push, notes) {
        const m = /^(-?\d+)x(-?\d+)_(-?\d+)x(-?\d+)$/.exec(d.move);
        s.last = [];
        if (m) for (const [x, y] of [[+m[1], +m[2]], [+m[3], +m[4]]]) {
          if (x >= 0 && y >= 0 && x < s.n && y < s.n) { s.cells[y * s.n + x] = d.seat; s.last.push(y * s.n + x); }
        }
        push(`seat ${d.seat} places ${d.move}`, { seat: d.seat });
      },
      end(s, d, push) { if (!s.n) this.board(s, d.board); push(`end: ${d.message}`); },
    },
    draw(v, s, m) {
      if (!s.n) { v.append(el("p", { cls: "hint", text: "board not known yet" })); return; }
      v.append(grid(s.n, s.n, (r, c) => {
        const o = s.cells[r * s.n + c];
        return el("div", { cls: "cell" + (o === -2 ? " blocked" : "") + (s.last.includes(r * s.n + c) ? " last" : ""), data: { x: c, y: r, owner: o }, title: `${c}x${r}`,
          style: o >= 0 ? { background: seatColour(o) } : {} });
      }));
      v.append(legend(m));
    },
  };
  viewers.blokus = {
    gtp: true,
    init: (m) => ({ rows: 0, cols: 0, cells: [], stones: [], left: [[], []], last: [], turn: 0 }),
    on: {
      board(s, d, push) {
        s.rows = d.rows; s.cols = d.cols; s.cells = new Array(d.rows * d.cols).fill(-1);
        for (const [r, c] of d.filled || []) s.cells[r * d.cols + c] = -2;
        s.stones = d.stones || []; s.left = [s.stones.map((x) => x.name), s.stones.map((x) => x.name)];
        push(`board ${d.rows} × ${d.cols}, ${s.stones.length} stones each`);
      },
      move(s, d, push) {
        const seat = d.player - 1;
        s.turn = d.turn; s.last = [];
        if (d.pass) { push(`turn ${d.turn}: player ${d.player} passes`, { seat }); return; }
        for (const [r, c] of d.cells || []) if (r >= 0 && c >= 0 && r < s.rows && c < s.cols) { s.cells[r * s.cols + c] = seat; s.last.push(r * s.cols + c); }
        if (s.left[seat]) s.left[seat] = without(s.left[seat], d.stone);
        push(`turn ${d.turn}: player ${d.player} places ${d.stone}`, { seat });
      },
      end(s, d, push) { push(`end (${d.reason}): scores ${d.scores.join(" ")}, cells left ${(d.left || []).join(" ")}`); },
    },
    draw(v, s, m) {
      if (!s.rows) { v.append(el("p", { cls: "hint", text: "board not known yet" })); return; }
      v.append(grid(s.rows, s.cols, (r, c) => {
        const o = s.cells[r * s.cols + c];
        return el("div", { cls: "cell" + (o === -2 ? " blocked" : "") + (s.last.includes(r * s.cols + c) ? " last" : ""), data: { x: c, y: r, owner: o }, title: `${r},${c}`,
          style: o >= 0 ? { background: seatColour(o) } : {} });
      }));
      v.append(el("div", { cls: "stones" }, m.seats.map((seat, i) => el("div", {}, el("span", { cls: "swatch", style: { background: seatColour(i) } }),
        `player ${i + 1} (${seat.bot}) stones left: `, (s.left[i] || []).map((name) => stone(s.stones.find((x) => x.name === name), seatColour(i)))))));
    },
  };
  function stone(st, colour) {
    if (!st) return null;
    const w = Math.max(...st.cells.map((c) => c[0])) + 1, h = Math.max(...st.cells.map((c) => c[1])) + 1;
    const g = el("span", { cls: "stone", title: st.name, data: { stone: st.name }, style: { gridTemplateColumns: `repeat(${w}, 6px)`, gridTemplateRows: `repeat(${h}, 6px)` } });
    for (const [x, y] of st.cells) g.append(el("i", { style: { gridColumn: x + 1, gridRow: y + 1, background: colour } }));
    return g;
  }
  viewers.auction = {
    perMove: true, // every bid is a process of its own
    init: (m) => ({ cols: 0, rows: 0, owner: [], capital: [], bids: null, cell: "", round: 0, queue: [], letters: [], history: [] }),
    on: {
      board(s, d, push) {
        Object.assign(s, { cols: d.cols, rows: d.rows, owner: new Array(d.cols * d.rows).fill(-1), capital: d.letters.map(() => d.capital), queue: d.queue || [], letters: d.letters, board: d.board });
        s.history = [s.capital.slice()];
        push(`board ${d.board}: ${d.cols} × ${d.rows}, capital ${d.capital}`);
      },
      round(s, d, push) {
        s.round = d.round; s.cell = d.cell; s.bids = d.bids.slice(); s.winner = d.winner; s.capital = d.capital.slice();
        s.history.push(s.capital.slice());
        const m = /^\[(\d+),(\d+)\]$/.exec(d.cell);
        if (m && d.winner >= 0) s.owner[(+m[2] - 1) * s.cols + (+m[1] - 1)] = d.winner;
        push(`round ${d.round}: ${d.cell} ` + (d.winner >= 0 ? `sold to ${s.letters[d.winner] || d.winner} for ${d.price}` : "unsold"));
      },
      end(s, d, push) { s.end = d; push(`end (${d.reason}) after ${d.rounds} rounds: places ${d.places.join(" ")}`); },
    },
    draw(v, s, m) {
      if (!s.cols) { v.append(el("p", { cls: "hint", text: "board not known yet" })); return; }
      const region = regions(s);
      const cm = /^\[(\d+),(\d+)\]$/.exec(s.cell || "");
      const cur = cm ? (+cm[2] - 1) * s.cols + (+cm[1] - 1) : -1;
      v.append(grid(s.rows, s.cols, (r, c) => {
        const i = r * s.cols + c, o = s.owner[i];
        return el("div", { cls: "cell" + (i === cur ? " last" : "") + (o >= 0 && region.best[o].has(i) ? " region" : ""), data: { x: c, y: r, owner: o }, title: `[${c + 1},${r + 1}]`,
          style: o >= 0 ? { background: seatColour(o) } : {} }, o >= 0 ? s.letters[o] : "");
      }));
      v.append(el("table", { cls: "data", attrs: { id: "auction-players" } },
        el("thead", {}, el("tr", {}, ["player", "bot", "bid this round", "capital", "cells", "largest region"].map((h) => el("th", { text: h })))),
        el("tbody", {}, m.seats.map((seat, i) => el("tr", { cls: s.winner === i && s.bids ? "won" : "" },
          el("td", {}, el("span", { cls: "swatch", style: { background: seatColour(i) } }), s.letters[i] || String(i)), el("td", { cls: "name", text: seat.bot }),
          el("td", { text: s.bids ? s.bids[i] : "" }), el("td", { text: s.capital[i] }), el("td", { text: region.cells[i] }), el("td", { text: region.size[i] }))))));
      if (s.history.length > 1) {
        const box = el("div", { cls: "chart", attrs: { id: "auction-capital" } });
        v.append(el("h3", { text: "Capital over the rounds" }), box);
        const xs = s.history.map((_, i) => i);
        replayChart = new uPlot({ width: 480, height: 200, scales: { x: { time: false } },
          series: [{ label: "round" }].concat(m.seats.map((seat, i) => ({ label: `${s.letters[i] || i} ${seat.bot}`, stroke: seatColour(i), width: 2 }))),
          axes: [roundAxis(), { label: "capital" }] }, [xs, ...m.seats.map((_, i) => s.history.map((c) => c[i]))], box);
      }
      const next = s.queue.slice(s.round, s.round + 8);
      if (next.length) v.append(el("p", { cls: "hint", text: `next cells: ${next.join(" ")}` }));
    },
  };
  // regions finds every seat's largest edge-connected region, as the
  // rules count it.
  function regions(s) {
    const n = s.capital.length, seen = new Array(s.owner.length).fill(false);
    const out = { size: new Array(n).fill(0), cells: new Array(n).fill(0), best: Array.from({ length: n }, () => new Set()) };
    s.owner.forEach((o, i) => {
      if (o < 0) return;
      out.cells[o]++;
      if (seen[i]) return;
      const comp = [], stack = [i]; seen[i] = true;
      while (stack.length) {
        const j = stack.pop(); comp.push(j);
        const c = j % s.cols, r = (j - c) / s.cols;
        for (const [x, y] of [[c - 1, r], [c + 1, r], [c, r - 1], [c, r + 1]]) {
          const k = y * s.cols + x;
          if (x >= 0 && y >= 0 && x < s.cols && y < s.rows && !seen[k] && s.owner[k] === o) { seen[k] = true; stack.push(k); }
        }
      }
      if (comp.length > out.size[o]) { out.size[o] = comp.length; out.best[o] = new Set(comp); }
    });
    return out;
  }
  function legend(m) {
    return el("div", { cls: "legend" }, m.seats.map((seat, i) => el("span", {}, el("span", { cls: "swatch", style: { background: seatColour(i) } }), `seat ${i}: ${seat.bot} `)));
  }

  // build turns records into steps. Protocol lines, and the events every
  // game shares, are handled here; a game's own events by its viewer.
  function build(recs, m, notes) {
    const viewer = viewers[site.driver];
    if (!viewer) notes.push(`No replay viewer for game ${site.driver}: only the lines are shown.`);
    let state = viewer ? viewer.init(m) : {};
    const steps = [];
    // lines are the lines since the last step, each with marks[i]: the
    // clock, answers and faults just after it, so that a step that takes
    // some of them (push's take) shows the seats as they were then.
    const lines = [], marks = [];
    // A seat's clock is charged as arbiter charges it
    // (drivers/proc/session.go, Send and Receive): each command from when
    // it was written, or, written together with others before it, from
    // when the answer before it was read (the bot was busy till then), to
    // when its own answer was read. due[i] counts seat i's commands
    // written and not yet answered, from[i] is when the first of them
    // started to be charged, and open[i] says that a GTP-style response
    // has begun (it ends with an empty line). The clock's start-up
    // allowance (site.startup_ms) pays first, as Receive takes it: in a
    // GTP-like game the set-up's commands (set_*, drivers/gtp Setup)
    // share it and the first other command ends it; in another game it
    // is the first exchange's alone. startup[i] is what is left of seat
    // i's, asked[i] its commands due, in order. What arbiter charges to no
    // clock is not charged here either: quit (gtp.Match.Quit writes it
    // untimed) and, once a fault has ended the match (every game whose
    // clock the transcript holds ends it at a fault), the commands other
    // seats still owed answers to (proc.Session.Abandon) and whatever
    // follows; ended says so.
    const clock = m.seats.map(() => 0), answers = m.seats.map(() => 0);
    const due = m.seats.map(() => 0), from = m.seats.map(() => 0), open = m.seats.map(() => false);
    const gtp = !!(viewer && viewer.gtp);
    const startup = m.seats.map(() => site.startup_ms || 0), asked = m.seats.map(() => []);
    let ended = false;
    const charge = (seat, t) => {
      const cmd = String(asked[seat].shift() ?? "");
      if (gtp && !cmd.startsWith("set_")) startup[seat] = 0;
      if (cmd === "quit") return;
      const elapsed = Math.max(0, t - from[seat]), allowed = Math.min(elapsed, startup[seat]);
      clock[seat] += elapsed - allowed;
      startup[seat] = gtp ? startup[seat] - allowed : 0;
    };
    const answered = (seat, t) => {
      if (!(due[seat] > 0)) return;
      if (ended) asked[seat].shift(); else charge(seat, t);
      answers[seat]++; due[seat]--; from[seat] = t;
    };
    const faults = [];
    const unknown = {};
    const line = (l) => { lines.push(l); marks.push({ clock: clock.slice(), answers: answers.slice(), faults: faults.length }); };
    // push makes a step of the state now and of the lines since the last
    // step: all of them, or the first extra.take (a viewer that makes
    // several steps of one event, a card each of a trick, gives each the
    // lines that lead to it; the rest wait for the next step).
    const push = (label, extra) => {
      extra = Object.assign({}, extra);
      let seen = { clock: clock.slice(), answers: answers.slice(), faults: faults.length };
      if (extra.take !== undefined) {
        const k = Math.max(0, Math.min(lines.length, extra.take));
        if (k < lines.length) seen = k ? marks[k - 1] : { clock: stepMark.clock, answers: stepMark.answers, faults: Math.min(stepMark.faults, faults.length) };
        delete extra.take;
        extra.lines = lines.splice(0, k); marks.splice(0, k);
      } else {
        extra.lines = lines.splice(0); marks.splice(0);
      }
      stepMark = seen;
      steps.push(Object.assign({ label, state: structuredClone(state), clock: seen.clock.slice(), answers: seen.answers.slice(), faults: faults.slice(0, seen.faults) }, extra));
    };
    let stepMark = { clock: clock.slice(), answers: answers.slice(), faults: 0 };
    // flush gives the moves the viewer has seen in the lines but no event
    // closed yet (the cards of a trick a fault left unfinished) their
    // steps, before a fault's step or the transcript's end.
    const flush = () => { if (viewer && viewer.flush) viewer.flush(state, push, lines); };
    const shared = {
      match() { },
      result() { },
      fault(s, d) { flush(); faults.push({ seat: d.seat, kind: d.kind, detail: d.detail }); push(`fault: seat ${d.seat} (${m.seats[d.seat] ? m.seats[d.seat].bot : "?"}) ${d.kind}: ${d.detail || ""}`, { fault: true, seat: d.seat }); },
      default(s, d) {
        const seat = d.seat;
        faults.push({ seat, kind: d.kind || "default", detail: d.detail || d.reason || "" });
        line({ seat, pos: d.position, phase: d.phase, note: `default answer (${d.kind || d.phase || ""}): ${d.detail || d.reason || ""}` + (d.default !== undefined ? ` → ${d.default}` : "") });
      },
      warning(s, d) { line({ seat: d.seat, note: `warning: '?' to ${d.command}` }); },
      // Auction: an answer after the move limit but within the tolerated
      // overrun (used, and counted against the bot), shown with its
      // round's step; a bot disqualified before the first match, not run.
      overrun(s, d) {
        const what = `${fmt(d.used_ms)} ms, over the limit of ${fmt(d.limit_ms)} ms`;
        faults.push({ seat: d.seat, kind: "overrun", detail: `round ${d.round}: ${what}` });
        line({ seat: d.seat, note: `overrun in round ${d.round}: answered in ${what} (within the tolerated overrun: the answer counts, and so does the overrun)` });
      },
      // A seat whose lines reached the transcript's cap: those after it
      // are not in the transcript (engine.MaxSeatTranscript).
      transcript_cut(s, d) {
        const who = `seat ${d.seat} (${m.seats[d.seat] ? m.seats[d.seat].bot : "?"})`;
        notes.push(`${who}: ${fmt(d.left_out_lines)} line(s) it printed after its first ${fmt(d.kept_lines)} are left out of the transcript, which keeps ${fmt(d.limit_bytes)} bytes of a seat's lines a match; its answers and clock here stop where they were cut (its time in the result is the whole match's)`);
      },
      out(s, d) {
        faults.push({ seat: d.seat, kind: "out", detail: d.detail });
        push(`out: seat ${d.seat} (${m.seats[d.seat] ? m.seats[d.seat].bot : "?"}) was disqualified before the first match and is not run: ${d.detail || ""}`, { fault: true, seat: d.seat });
      },
    };
    for (const r of recs) {
      if (r.send !== undefined || r.recv !== undefined) {
        const seat = r.seat;
        if (seat >= 0 && seat < m.seats.length) {
          if (r.send !== undefined) {
            if (!(due[seat] > 0)) from[seat] = r.t;
            due[seat]++; asked[seat].push(r.send);
          } else if (!gtp) answered(seat, r.t); // a line is an answer
          else if (open[seat] && r.recv === "") { open[seat] = false; answered(seat, r.t); }
          else if (!open[seat] && String(r.recv).trim() !== "") open[seat] = true; // empty lines before a response are skipped
        }
        line(r);
        if (viewer && viewer.line) viewer.line(state, r);
        continue;
      }
      const kind = r.event;
      if (kind === "fault") {
        // A bot that faulted while a command was due (a time-out, a
        // crash) is charged till the fault, as Receive charges it; every
        // seat that faulted on the same command has its own fault event,
        // one after the other. Every other clock stops here.
        const seat = (r.data || {}).seat;
        if (due[seat] > 0) { charge(seat, r.t); due[seat] = 0; asked[seat] = []; open[seat] = false; }
        ended = true;
      }
      if (kind === "decision") {
        const d = r.data || {};
        answers[d.seat] = (answers[d.seat] || 0) + 1;
        line({ seat: d.seat, pos: d.position, phase: d.phase, send: `[position ${d.position}, ${d.phase}] ` + String(d.input || "").trim().replace(/\n/g, " ⏎ ") });
        line({ seat: d.seat, pos: d.position, phase: d.phase, recv: d.answer });
        continue;
      }
      const own = viewer && viewer.on[kind];
      const sh = shared[kind];
      try {
        if (own) own.call(viewer, state, r.data || {}, push, notes, lines);
        else if (sh) sh(state, r.data || {});
        else { unknown[kind] = (unknown[kind] || 0) + 1; }
      } catch (e) {
        notes.push(`event ${kind} at ${r.t} ms could not be shown (${e.message}); skipped`);
      }
    }
    for (const [k, n] of Object.entries(unknown)) notes.push(`${n} event(s) of unknown kind "${k}" skipped`);
    // A fault the transcript did not mark (a crash between events) is
    // shown at the end, from the result.
    flush();
    m.seats.forEach((s, i) => {
      if (s.fault && !faults.some((f) => f.seat === i && f.kind === s.fault)) {
        faults.push({ seat: i, kind: s.fault, detail: s.detail });
        push(`fault: seat ${i} (${s.bot}) ${s.fault}: ${s.detail || ""}`, { fault: true, seat: i });
      }
    });
    if (lines.length || !steps.length) push("end of transcript");
    return steps;
  }

  let replay = null; // {id, match, steps, notes, step}
  let replayChart = null; // a chart the step's view drew
  let timer = null;
  async function openReplay(id, step) {
    showTab("replay");
    const m = site.matches.find((x) => x.match === id);
    const running = !m && (site.running || []).includes(id);
    $("#replay-empty").hidden = !!m || running;
    if (!m && !running) { $("#replay-empty").textContent = `No finished match ${id}.`; return; }
    if (!replay || replay.id !== id) {
      stop(); // autoplay is of the match it was started on
      $("#replay-title").textContent = `Replay of ${id}`;
      clear($("#replay-view")).append(el("p", { cls: "hint", text: "loading…" }));
      replay = null;
      const r = await loadReplay(id, m, false);
      // The viewer may have gone elsewhere while the transcript loaded:
      // to another tab, or another match, whose replay is loading now.
      if (!showing(id)) return;
      replay = r;
    }
    showNotes(replay);
    go(step);
  }
  // showing says whether the viewer is on the replay of match id: its tab
  // is shown, and the address asks for no other match.
  function showing(id) {
    const q = new URLSearchParams(location.hash.slice(1));
    return !$("#replay").hidden && (!q.has("match") || q.get("match") === id);
  }
  // loadReplay reads a match's transcript into steps. A match without a
  // result yet (m undefined) takes its seats from its match event, and
  // shows what its transcript holds so far.
  async function loadReplay(id, m, again) {
    const notes = [];
    let steps = [], match = m;
    if (!m) notes.push(`Match ${id} has no result yet (being played, or cut off): this is what its transcript holds so far` + (live ? ", followed as it grows." : "."));
    try {
      // A match being played, on a live page, is followed (followed);
      // any other's transcript is read whole.
      let recs;
      if (live && !m) {
        const f = await followed(id);
        recs = f.recs;
        noteBad(f.bad, notes);
      } else recs = parse(await transcript(id, again), notes);
      if (!match) {
        const ev = recs.find((r) => r.event === "match");
        const seats = ev && ev.data && Array.isArray(ev.data.seats) ? ev.data.seats : [];
        if (!seats.length) notes.push(`the transcript of ${id} does not name its seats yet`);
        match = { match: id, seats: seats.map((bot) => ({ bot: String(bot) })), stderr: [] };
      }
      steps = build(recs, match, notes);
    } catch (e) { notes.push(e.message); }
    return { id, match: match || { match: id, seats: [], stderr: [] }, steps, notes, running: !m };
  }
  function showNotes(r) {
    const ul = clear($("#replay-notes"));
    for (const n of r.notes) ul.append(el("li", { text: n }));
    $("#r-slider").max = Math.max(0, r.steps.length - 1);
  }
  // A live page follows the replay of a match being played: it reads
  // what its transcript has gained every second (the run writes it out at
  // least that often; see followed), and the whole transcript once more
  // when the match has its result. A viewer on the last step stays on the
  // last step.
  let following = false;
  async function followReplay() {
    if (!live || following || !replay || !replay.running || $("#replay").hidden) return;
    following = true;
    try {
      const id = replay.id, m = site.matches.find((x) => x.match === id);
      if (m) delete follows[id];
      const r = await loadReplay(id, m, true);
      if (!replay || replay.id !== id) return;
      const atEnd = replay.step >= replay.steps.length - 1;
      r.step = atEnd ? Math.max(0, r.steps.length - 1) : replay.step;
      replay = r;
      // Left while it loaded: kept, and drawn when the replay is shown
      // again; the address and the tab are the viewer's.
      if (!showing(id)) return;
      showNotes(r);
      go(r.step);
    } finally { following = false; }
  }
  if (live) setInterval(followReplay, 1000);
  function go(n) {
    if (!replay) return;
    const steps = replay.steps;
    // n | 0 would make Infinity (the last step) 0: clamp first.
    n = n === Infinity ? steps.length - 1 : Number.isFinite(n) ? Math.trunc(n) : 0;
    n = Math.max(0, Math.min(steps.length - 1, n));
    replay.step = n;
    $("#r-slider").value = n;
    $("#r-step").textContent = steps.length ? `step ${n} of ${steps.length - 1}` : "no steps";
    const want = `#match=${encodeURIComponent(replay.id)}&step=${n}`;
    if (location.hash !== want) history.replaceState(null, "", want);
    if (replayChart) { replayChart.destroy(); replayChart = null; }
    const v = clear($("#replay-view"));
    const st = steps[n];
    v.dataset.step = n;
    if (!st) {
      // No transcript (the notes say why), or none that makes a step:
      // nothing of another match's replay may stay on show.
      $("#r-label").textContent = ""; clear($("#replay-seats")); clear($("#replay-lines"));
      v.append(el("p", { text: "No steps to show." }));
      return;
    }
    $("#r-label").textContent = st.label;
    $("#r-label").className = st.fault ? "fault" : "";
    const viewer = viewers[site.driver];
    if (viewer) viewer.draw(v, st.state, replay.match);
    drawSide(st);
  }
  function drawSide(st) {
    const m = replay.match;
    // A game that runs a process per move does not time each move in its
    // transcript: its clock is the result's time_ms, the match's total.
    const perMove = viewers[site.driver] && viewers[site.driver].perMove;
    // CPU the seat's processes used off move, charged to its clock at its
    // next commands (the result's off_move_ms, part of its time_ms): the
    // transcript does not time it, so it is said under the clock, for the
    // whole match, when there was any.
    const offMove = (s) => s.off_move_ms ? el("div", { cls: "off-move", text: `+ ${fmt(s.off_move_ms)} ms off move (match total)`,
      title: "CPU this bot's processes used while it was not on move, charged to its clock at its next commands: part of the result's time_ms, which the clock above, timed from the transcript, does not hold (the result's off_move_ms)." }) : null;
    // "(match total)" may go under the milliseconds when the seats are short of room.
    const clock = (s, i) => perMove ? el("td", { cls: "clock", title: "This game runs a process per move and its transcript does not time each one: this is the clock the seat used in the whole match (the result's time_ms)." },
      el("span", { text: `${fmt(s.time_ms)} ms` }), " ", el("span", { text: "(match total)" }), offMove(s))
      : el("td", { cls: "clock" }, `${fmt(st.clock[i])} ms`, offMove(s));
    // A seat's answers replaced for one reason round after round (an
    // Auction bot that crashes every round) are one line, counted.
    const counted = (texts) => [...texts.reduce((seen, t) => seen.set(t, (seen.get(t) || 0) + 1), new Map())];
    clear($("#replay-seats")).append(el("thead", {}, el("tr", {}, ["seat", "bot", "answers", "clock used", "fault"].map((h) => el("th", { text: h })))),
      el("tbody", {}, m.seats.map((s, i) => {
        const f = st.faults.filter((x) => x.seat === i);
        return el("tr", { cls: st.seat === i ? "active" : "" },
          el("td", { text: i }), el("td", { cls: "name" }, el("span", { cls: "swatch", style: { background: seatColour(i) } }), s.bot),
          el("td", { text: st.answers[i] || 0 }), clock(s, i),
          el("td", { cls: f.length ? "fault" : "" }, counted(f.map((x) => `${x.kind}: ${x.detail || ""}`)).map(([text, n]) => el("div", { text: n > 1 ? `${text} (${n} times)` : text })),
            f.length && m.stderr && m.stderr[i] ? el("details", { attrs: { open: "" } }, el("summary", { text: "stderr (end)" }), el("pre", { cls: "stderr", text: m.stderr[i] })) : null));
      })));
    const box = clear($("#replay-lines"));
    const shown = st.lines.slice(-200);
    if (st.lines.length > shown.length) box.append(el("p", { cls: "hint", text: `${st.lines.length - shown.length} earlier lines not shown` }));
    for (const l of shown) {
      const who = m.seats[l.seat] ? `${l.seat} ${m.seats[l.seat].bot}` : String(l.seat);
      if (l.note) box.append(el("div", { cls: "line note" }, `${who}: ${l.note}`));
      else if (l.send !== undefined) box.append(el("div", { cls: "line send" }, `→ ${who}: ${l.send}`));
      else box.append(el("div", { cls: "line recv" }, `← ${who}: ${l.recv}`));
    }
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; $("#r-play").textContent = "play"; } }
  function play() {
    if (timer) return stop();
    $("#r-play").textContent = "pause";
    timer = setInterval(() => {
      if (!replay || replay.step >= replay.steps.length - 1) return stop();
      go(replay.step + 1);
    }, 600);
  }
  $("#r-first").addEventListener("click", () => { stop(); go(0); });
  $("#r-prev").addEventListener("click", () => { stop(); if (replay) go(replay.step - 1); });
  $("#r-next").addEventListener("click", () => { stop(); if (replay) go(replay.step + 1); });
  $("#r-last").addEventListener("click", () => { stop(); if (replay) go(replay.steps.length - 1); });
  $("#r-play").addEventListener("click", play);
  $("#r-slider").addEventListener("input", (e) => { stop(); go(+e.target.value); });
  document.addEventListener("keydown", (e) => {
    if (!replay || $("#replay").hidden || e.target.matches("input[type=text], select, textarea")) return;
    if (e.key === "ArrowRight") { stop(); go(replay.step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { stop(); go(replay.step - 1); e.preventDefault(); }
  });

  // ---- tabs and links ----
  function showTab(name) {
    for (const s of $$("section.tab")) s.hidden = s.id !== name;
    for (const a of $$("nav a")) a.classList.toggle("current", a.dataset.tab === name);
    if (name === "charts" && !chartsDrawn) drawCharts();
    if (name === "matches" && !matchesDrawn) { matchesDrawn = true; renderMatches(); }
  }
  let matchesDrawn = false;
  // A head-to-head and a filtered match list have addresses of their
  // own, kept up to date as they change: #h2h=A,B (each name encoded)
  // and #matches&bot=A&vs=B&round=R&fault=F (the filters set).
  const filters = { bot: "#f-bot", vs: "#f-vs", round: "#f-round", fault: "#f-fault" };
  const pairHash = () => pair.length === 2 ? "#h2h=" + pair.map(encodeURIComponent).join(",") : "#standings";
  const matchesHash = () => "#matches" + Object.entries(filters).filter(([, id]) => $(id).value)
    .map(([k, id]) => `&${k}=${encodeURIComponent($(id).value)}`).join("");
  function address(hash) { if (location.hash !== hash) history.replaceState(null, "", hash); }
  const decode = (x) => { try { return decodeURIComponent(x); } catch (e) { return x; } };
  function route() {
    const h = location.hash.slice(1);
    const q = new URLSearchParams(h);
    if (q.has("match")) { openReplay(q.get("match"), parseInt(q.get("step") || "0", 10)); return; }
    stop();
    if (h.startsWith("h2h=")) {
      pair = h.slice(4).split(",").slice(0, 2).map(decode);
      renderPicked();
      showTab("standings");
      return;
    }
    const tab = h.split("&")[0];
    if (tab === "matches" && Object.keys(filters).some((k) => q.has(k))) {
      for (const k of Object.keys(filters)) wanted[k] = q.get(k) || "";
      renderFilters();
      for (const [k, id] of Object.entries(filters)) $(id).value = wanted[k];
      matchesDrawn = true;
      renderMatches();
    }
    showTab(["standings", "charts", "matches", "replay"].includes(tab) ? tab : "standings");
    if (tab === "matches") address(matchesHash());
    if (tab === "standings" && pair.length === 2) address(pairHash());
  }
  window.addEventListener("hashchange", route);
  for (const [k, id] of Object.entries(filters)) $(id).addEventListener("change", () => { wanted[k] = $(id).value; renderMatches(); address(matchesHash()); });

  function renderAll() {
    colours();
    renderHeader();
    renderStandings();
    renderFilters();
    if (matchesDrawn) renderMatches();
    if (chartsDrawn) { chartsDrawn = false; if (!$("#charts").hidden) drawCharts(); }
  }
  renderAll();
  route();
  // The first view is drawn: say when, in milliseconds since navigation
  // started (the benchmark reads it).
  document.body.dataset.ready = String(Math.round(performance.now()));

  // ---- live ----
  if (live) {
    const badge = $("#live");
    const connect = () => {
      const es = new EventSource("events");
      // The results cannot be read now (a line of results.jsonl that is
      // not a result, the directory gone): say why over what the page
      // shows, which is the last results it could read, until they can.
      es.addEventListener("problem", (e) => {
        const p = $("#problem");
        p.textContent = `The results cannot be read now: ${e.data}. What this page shows are the last results it could read (${new Date().toLocaleTimeString()}), not the current ones.`;
        p.hidden = false;
        badge.textContent = "live · the results cannot be read";
      });
      es.addEventListener("site", (e) => {
        $("#problem").hidden = true;
        site = normal(JSON.parse(e.data));
        renderAll();
        if (replay) {
          const m = site.matches.find((x) => x.match === replay.id);
          if (m && replay.running) followReplay(); else if (m) replay.match = m;
        }
        badge.textContent = `live · updated ${new Date().toLocaleTimeString()}`;
        document.body.dataset.updates = String((+document.body.dataset.updates || 0) + 1);
      });
      // The server stops with the run (run -serve), or when it is
      // stopped: the page keeps the last results, and says they are.
      es.addEventListener("stopped", () => {
        es.close();
        badge.textContent = `not live: the server stopped at ${new Date().toLocaleTimeString()} (the run ended, or was stopped); these are the last results it served`;
        document.body.dataset.stopped = "1";
      });
      es.onerror = () => { badge.textContent = "live · reconnecting…"; };
      es.onopen = () => { badge.textContent = "live"; };
    };
    connect();
  }
})();

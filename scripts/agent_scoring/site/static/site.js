// agent-scoring run browser: the item table (run page) and the item page. Data files
// (rows-NNNN.js, details-NNNN.js) call window.siteData.add; every string from an export is
// put into the page as text (textContent), never as HTML.
(function () {
  "use strict";
  var store = {};
  var waiting = {};
  window.siteData = {
    add: function (kind, chunk, rows) {
      store[kind + ":" + chunk] = rows;
      var done = waiting[kind + ":" + chunk];
      if (done) { delete waiting[kind + ":" + chunk]; done(rows); }
    }
  };

  function load(kind, chunk) {
    var key = kind + ":" + chunk;
    if (store[key]) { return Promise.resolve(store[key]); }
    return new Promise(function (resolve, reject) {
      waiting[key] = resolve;
      var script = document.createElement("script");
      script.src = kind + "-" + String(chunk).padStart(4, "0") + ".js";
      script.addEventListener("error", function () { reject(new Error("cannot read " + script.src)); });
      document.head.appendChild(script);
    });
  }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (className) { node.className = className; }
    return node;
  }

  function asObjects(columns, rows) {
    return rows.map(function (row) {
      var item = {};
      columns.forEach(function (name, i) { item[name] = row[i]; });
      return item;
    });
  }

  function fmt(value, digits) {
    if (value === null || value === undefined || value === "") { return "-"; }
    if (typeof value === "number") { return value.toFixed(digits === undefined ? 1 : digits); }
    return String(value);
  }

  function hashParams() { return new URLSearchParams(location.hash.replace(/^#/, "")); }

  // ---- the run page: item table ----
  var PAGE_SIZE = 100;

  function checkKinds(item) {
    if (!item.failed_checks) { return []; }
    return item.failed_checks.split(", ").map(function (c) { return c.split(" ")[0]; });
  }

  function agreement(item) {
    var llm = item.llm_item_score, rule = item.rule_intent_score;
    if (llm === null || llm === undefined) { return ["no_llm"]; }
    if (rule === null || rule === undefined) { return []; }
    var found = [llm > rule ? "llm_higher" : (llm < rule ? "llm_lower" : "same")];
    if (Math.abs(llm - rule) >= 2) { found.push("far"); }
    return found;
  }

  function runPage() {
    var table = document.getElementById("item-table");
    if (!table) { return; }
    var meta = JSON.parse(table.dataset.meta);
    var form = document.getElementById("filters");
    var status = document.getElementById("item-status");
    var items = [];
    var state = {};

    function readState() {
      var p = hashParams();
      state = { q: p.get("q") || "", status: p.get("status") || "", check: p.get("check") || "",
        band: p.get("band") || "", agree: p.get("agree") || "", flaky: p.get("flaky") === "1",
        sort: p.get("sort") || "record_no", page: Math.max(1, parseInt(p.get("page") || "1", 10) || 1) };
      form.elements.q.value = state.q;
      ["status", "check", "band", "agree"].forEach(function (name) { form.elements[name].value = state[name]; });
      form.elements.flaky.checked = state.flaky;
    }

    function writeState() {
      var p = new URLSearchParams();
      ["q", "status", "check", "band", "agree"].forEach(function (name) { if (state[name]) { p.set(name, state[name]); } });
      if (state.flaky) { p.set("flaky", "1"); }
      if (state.sort !== "record_no") { p.set("sort", state.sort); }
      if (state.page > 1) { p.set("page", String(state.page)); }
      var text = p.toString();
      history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
    }

    function matches(item) {
      if (state.status && item.status !== state.status) { return false; }
      if (state.band && (item.speed_band_label || "-") !== state.band) { return false; }
      if (state.flaky && !item.is_flaky) { return false; }
      if (state.check && checkKinds(item).indexOf(state.check) < 0) { return false; }
      if (state.agree && agreement(item).indexOf(state.agree) < 0) { return false; }
      if (state.q) {
        var q = state.q.toLowerCase();
        if (String(item.query_id || "").toLowerCase().indexOf(q) < 0 &&
            String(item.query_text || "").toLowerCase().indexOf(q) < 0) { return false; }
      }
      return true;
    }

    function compare(a, b) {
      var key = state.sort.replace(/^-/, ""), sign = state.sort.charAt(0) === "-" ? -1 : 1;
      var x = a[key], y = b[key];
      if (x === y) { return a.record_no - b.record_no; }
      if (x === null || x === undefined) { return 1; }
      if (y === null || y === undefined) { return -1; }
      return (x < y ? -1 : 1) * sign;
    }

    function fillOptions(name, values) {
      var select = form.elements[name];
      values.sort().forEach(function (value) {
        var option = el("option", value);
        option.value = value;
        select.appendChild(option);
      });
    }

    function render() {
      var shown = items.filter(matches).sort(compare);
      var pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
      state.page = Math.min(state.page, pages);
      var body = table.tBodies[0];
      body.textContent = "";
      shown.slice((state.page - 1) * PAGE_SIZE, state.page * PAGE_SIZE).forEach(function (item) {
        var tr = document.createElement("tr");
        var link = el("a", item.record_no);
        link.href = "item.html#r=" + item.record_no;
        var first = el("th"); first.scope = "row"; first.appendChild(link); tr.appendChild(first);
        tr.appendChild(el("td", item.query_id));
        tr.appendChild(el("td", item.round_label));
        tr.appendChild(el("td", item.query_text, "query"));
        var st = el("td"); st.appendChild(el("span", item.status, "badge status-" + item.status)); tr.appendChild(st);
        tr.appendChild(el("td", item.failed_checks || ""));
        tr.appendChild(el("td", item.speed_band_label || "-"));
        tr.appendChild(el("td", item.is_flaky ? "예" : ""));
        tr.appendChild(el("td", fmt(item.llm_item_score), "num"));
        tr.appendChild(el("td", fmt(item.rule_intent_score), "num"));
        body.appendChild(tr);
      });
      table.querySelectorAll("th[aria-sort]").forEach(function (th) {
        var key = th.querySelector("button").dataset.sort;
        th.setAttribute("aria-sort", state.sort === key ? "ascending" : (state.sort === "-" + key ? "descending" : "none"));
      });
      document.getElementById("page-info").textContent = state.page + " / " + pages + " 쪽";
      document.getElementById("prev").disabled = state.page <= 1;
      document.getElementById("next").disabled = state.page >= pages;
      var loaded = items.length < meta.item_count ? " (불러오는 중: " + items.length + " / " + meta.item_count + ")" : "";
      status.textContent = "항목 " + meta.item_count + "개 중 " + shown.length + "개 표시" + loaded;
    }

    function changed() {
      state.q = form.elements.q.value.trim();
      ["status", "check", "band", "agree"].forEach(function (name) { state[name] = form.elements[name].value; });
      state.flaky = form.elements.flaky.checked;
      state.page = 1;
      writeState();
      render();
    }

    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("reset", function () { setTimeout(changed, 0); });
    table.querySelectorAll("th button").forEach(function (button) {
      button.addEventListener("click", function () {
        var key = button.dataset.sort;
        state.sort = state.sort === key ? "-" + key : key;
        state.page = 1;
        writeState();
        render();
      });
    });
    document.getElementById("prev").addEventListener("click", function () { state.page -= 1; writeState(); render(); });
    document.getElementById("next").addEventListener("click", function () { state.page += 1; writeState(); render(); });
    window.addEventListener("hashchange", function () { readState(); render(); });

    var chunks = meta.row_chunks.slice();
    var optionsFilled = false;
    function next() {
      if (!chunks.length) {
        if (!optionsFilled) {
          optionsFilled = true;
          var statuses = {}, checks = {}, bands = {};
          items.forEach(function (item) {
            statuses[item.status] = 1;
            bands[item.speed_band_label || "-"] = 1;
            checkKinds(item).forEach(function (kind) { checks[kind] = 1; });
          });
          fillOptions("status", Object.keys(statuses));
          fillOptions("check", Object.keys(checks));
          fillOptions("band", Object.keys(bands));
          readState();
        }
        render();
        return Promise.resolve();
      }
      return load("rows", chunks.shift()).then(function (rows) {
        items = items.concat(asObjects(meta.row_columns, rows));
        render();
        return next();
      });
    }
    readState();
    next().catch(function (error) { status.textContent = String(error.message || error); });
  }

  // ---- the item page ----
  function pretty(value, path, read, out, indent) {
    var pad = "  ".repeat(indent);
    if (Array.isArray(value)) {
      if (!value.length) { out.push(["lit", "[]"]); return; }
      out.push(["", "[\n"]);
      value.forEach(function (entry, i) {
        out.push(["", pad + "  "]);
        pretty(entry, path + "[*]", read, out, indent + 1);
        out.push(["", (i < value.length - 1 ? "," : "") + "\n"]);
      });
      out.push(["", pad + "]"]);
    } else if (value !== null && typeof value === "object") {
      var keys = Object.keys(value);
      if (!keys.length) { out.push(["lit", "{}"]); return; }
      out.push(["", "{\n"]);
      keys.forEach(function (key, i) {
        var here = path ? path + "." + key : key;
        var marked = read.indexOf(here) >= 0;
        out.push(["", pad + "  "]);
        var start = out.length;
        out.push(["key", JSON.stringify(key)]);
        out.push(["", ": "]);
        pretty(value[key], here, read, out, indent + 1);
        if (marked) { out.splice(start, 0, ["mark-open", ""]); out.push(["mark-close", ""]); }
        out.push(["", (i < keys.length - 1 ? "," : "") + "\n"]);
      });
      out.push(["", pad + "}"]);
    } else {
      out.push([typeof value === "string" ? "str" : "lit", JSON.stringify(value)]);
    }
  }

  function showRaw(pre, raw, read) {
    pre.textContent = "";
    if (raw === null || raw === undefined) { pre.textContent = "(원문 응답 없음)"; return; }
    var parsed;
    try { parsed = JSON.parse(raw); } catch (error) { pre.textContent = raw; return; }
    var parts = [];
    pretty(parsed, "", read, parts, 0);
    var target = pre, stack = [];
    parts.forEach(function (part) {
      if (part[0] === "mark-open") { var mark = document.createElement("mark"); target.appendChild(mark); stack.push(target); target = mark; return; }
      if (part[0] === "mark-close") { target = stack.pop(); return; }
      target.appendChild(part[0] ? el("span", part[1], part[0]) : document.createTextNode(part[1]));
    });
  }

  function field(list, label, value) {
    list.appendChild(el("dt", label));
    list.appendChild(el("dd", value === null || value === undefined || value === "" ? "-" : value));
  }

  function itemPage() {
    var box = document.getElementById("item");
    if (!box) { return; }
    var meta = JSON.parse(box.dataset.meta);
    var status = document.getElementById("item-status");

    function find() {
      var p = hashParams();
      var record = parseInt(p.get("r") || "", 10);
      if (record > 0) {
        var chunk = Math.floor((record - 1) / meta.row_chunk);
        if (meta.row_chunks.indexOf(chunk) < 0) { return Promise.resolve(null); }
        return load("rows", chunk).then(function (rows) {
          return asObjects(meta.row_columns, rows).filter(function (i) { return i.record_no === record; })[0] || null;
        });
      }
      var query = p.get("q"), round = p.get("round");
      if (query === null) { return Promise.resolve(null); }
      var chunks = meta.row_chunks.slice();
      function scan() {
        if (!chunks.length) { return Promise.resolve(null); }
        return load("rows", chunks.shift()).then(function (rows) {
          var hit = asObjects(meta.row_columns, rows).filter(function (i) {
            return i.query_id === query && (round === null || i.round_label === round);
          })[0];
          return hit || scan();
        });
      }
      return scan();
    }

    function rounds(item) {
      // the same query's other rounds: links to their pages (the table's rows already read)
      var box = document.getElementById("rounds");
      box.textContent = "";
      var chunks = meta.row_chunks.slice(), found = [];
      function scan() {
        if (!chunks.length) {
          found.sort(function (a, b) { return a.record_no - b.record_no; }).forEach(function (other) {
            var li = document.createElement("li");
            if (other.record_no === item.record_no) { li.appendChild(el("span", other.round_label + " (이 항목)")); }
            else { var a = el("a", other.round_label + " · 행 " + other.record_no + " · " + other.status); a.href = "#r=" + other.record_no; li.appendChild(a); }
            box.appendChild(li);
          });
          return Promise.resolve();
        }
        return load("rows", chunks.shift()).then(function (rows) {
          asObjects(meta.row_columns, rows).forEach(function (other) { if (other.query_id === item.query_id) { found.push(other); } });
          return scan();
        });
      }
      return scan();
    }

    function show() {
      find().then(function (item) {
        var list = document.getElementById("item-fields");
        list.textContent = "";
        if (!item) { status.textContent = "이 실행에 그런 항목이 없다: 주소의 #r=행 번호를 확인하라."; return null; }
        document.getElementById("item-title").textContent = "항목 " + item.record_no + " · " + item.query_id + " · " + item.round_label;
        document.title = "항목 " + item.record_no + " · agent-scoring";
        var chunk = Math.floor((item.record_no - 1) / meta.detail_chunk);
        var detailed = meta.detail_chunks.indexOf(chunk) >= 0 ? load("details", chunk) : Promise.resolve([]);
        return detailed.then(function (rows) {
          var hit = rows.filter(function (r) { return r[0][0] === item.record_no; })[0];
          var d = hit ? asObjects(meta.detail_columns, [hit[0]])[0] : item;
          var checks = hit ? hit[1] : [];
          field(list, "질의", d.query_text);
          field(list, "기대결과", hit ? d.expected_result : "(이 실행에서는 처음 항목들만 원문을 보관한다)");
          field(list, "카테고리", d.category);
          field(list, "Track", d.track);
          field(list, "상태", d.status + (d.error_message ? " — " + d.error_message : ""));
          field(list, "규칙 점수 (의도 충족)", fmt(d.rule_intent_score) + (d.score_source ? " · 쓰인 점수: " + fmt(d.intent_score) + " (" + d.score_source + ")" : ""));
          field(list, "플랫폼 LLM 점수", fmt(hit ? (d.llm_intent_score !== null ? d.llm_intent_score : d.llm_score) : d.llm_item_score) + (d.llm_status ? " · " + d.llm_status : ""));
          field(list, "LLM 코멘트", d.llm_comment);
          field(list, "응답 시간", d.response_time_sec === null || d.response_time_sec === undefined ? (d.response_time_problem || "-") : fmt(d.response_time_sec, 3) + "초 · " + (d.speed_band_label || "구간 없음"));
          field(list, "회차마다 다른 질의", d.is_flaky ? "예" : "아니오");
          rounds(item);
          var section = document.getElementById("checks-section");
          var body = document.getElementById("checks").tBodies[0];
          body.textContent = "";
          section.hidden = !checks.length;
          var read = [];
          checks.forEach(function (c) {
            var tr = document.createElement("tr");
            tr.appendChild(el("td", c.check_no, "num"));
            tr.appendChild(el("td", c.check_kind));
            tr.appendChild(el("td", c.expected_value));
            var v = el("td"); v.appendChild(el("span", c.passed ? "통과" : "실패", "badge " + (c.passed ? "pass" : "fail"))); tr.appendChild(v);
            tr.appendChild(el("td", c.read_field || "-"));
            tr.appendChild(el("td", c.passed ? "읽은 필드에 기대값이 있다" :
              (c.value_elsewhere_in_item ? "기대값이 항목의 다른 필드에 있다 (seeds/check_paths.csv의 경로 확인)" : "기대값이 없다")));
            body.appendChild(tr);
            if (c.read_field) { read.push(c.read_field); }
          });
          var pre = document.getElementById("raw");
          if (hit && d.raw_reply_chars > d.raw_reply.length) {
            pre.textContent = "(원문 응답이 " + d.raw_reply_chars + "자로 길어 처음 " + d.raw_reply.length + "자만 보인다)\n" + d.raw_reply;
          } else if (hit) { showRaw(pre, d.raw_reply, read); }
          else { pre.textContent = "(원문 응답은 파일마다 처음 " + meta.with_details + "개 행까지 보관된다: dbt var site_replies_per_file)"; }
          status.textContent = "";
        });
      }).catch(function (error) { status.textContent = String(error.message || error); });
    }
    window.addEventListener("hashchange", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var page = document.body.dataset.page;
    if (page === "run") { runPage(); }
    if (page === "item") { itemPage(); }
  });
})();

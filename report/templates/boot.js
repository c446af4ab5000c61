// Draws every chart of ttCharts and writes the outcome into <body>:
// data-charts is the number of chart elements holding a drawn canvas.
(function () {
  var record = window.ttRecordError || function () {};

  function round(v) {
    if (v === null || v === undefined || v === '-') return '–';
    if (typeof v !== 'number') return v;
    var a = Math.abs(v);
    return a >= 100 ? Math.round(v).toLocaleString('en-US') : +v.toPrecision(3);
  }

  // errorbar draws [row, low, high, estimate] as a bar from low to high with
  // a dot at the estimate.
  function errorbar(params, api) {
    var row = api.value(0);
    var lo = api.coord([api.value(1), row]), hi = api.coord([api.value(2), row]);
    var mid = api.coord([api.value(3), row]);
    var color = api.visual('color'), h = 7;
    var line = function (x1, y1, x2, y2) {
      return { type: 'line', shape: { x1: x1, y1: y1, x2: x2, y2: y2 }, style: { stroke: color, lineWidth: 2 } };
    };
    return { type: 'group', children: [
      line(lo[0], lo[1], hi[0], hi[1]), line(lo[0], lo[1] - h, lo[0], lo[1] + h), line(hi[0], hi[1] - h, hi[0], hi[1] + h),
      { type: 'circle', shape: { cx: mid[0], cy: mid[1], r: 5 }, style: { fill: color } }
    ] };
  }

  // span draws [row, from, to] as a horizontal bar on a category row.
  function span(params, api) {
    var row = api.value(0);
    var a = api.coord([api.value(1), row]), b = api.coord([api.value(2), row]);
    var h = api.size([0, 1])[1] * 0.55;
    var cs = params.coordSys;
    var rect = echarts.graphic.clipRectByRect(
      { x: a[0], y: a[1] - h / 2, width: Math.max(b[0] - a[0], 1), height: h },
      { x: cs.x, y: cs.y, width: cs.width, height: cs.height });
    return rect && { type: 'rect', shape: rect, style: api.style() };
  }

  var renderers = { errorbar: errorbar, span: span };

  function each(x, f) { if (x) (Array.isArray(x) ? x : [x]).forEach(f); }

  // wrapLegend makes a legend a plain one that wraps into rows, and makes
  // room for the rows it needs (about 150 px an entry): the element grows
  // and the plot moves away from the legend, so the legend neither pages
  // nor covers the plot or its axis labels.
  function wrapLegend(option, el) {
    if (!option.legend) return;
    var names = {};
    each(option.series, function (s) { names[s.name] = true; });
    var perRow = Math.max(1, Math.floor(el.clientWidth / 150));
    var extra = (Math.ceil(Object.keys(names).length / perRow) - 1) * 24;
    option.legend = Object.assign({}, option.legend, { type: 'plain', right: 0 });
    if (extra <= 0) return;
    el.style.height = (el.clientHeight + extra) + 'px';
    var top = option.legend.top === 0;
    each(option.grid, function (g) {
      if (top) g.top = (g.top || 0) + extra;
      else g.bottom = (g.bottom || 0) + extra;
    });
  }

  // narrow lays a chart out for a phone-width container: plot areas keep
  // their labels inside (containLabel) with small margins, vertical axis
  // names move above the axis, category labels are truncated shorter.
  function narrow(option) {
    var labelled = false; // values printed right of bars need room
    each(option.series, function (s) { labelled = labelled || !!(s.label && s.label.show && s.label.position === 'right'); });
    each(option.grid, function (g) {
      g.containLabel = true;
      g.left = 6;
      g.right = labelled ? 44 : 16;
      g.top = (g.top || 0) + 16;
    });
    each(option.yAxis, function (a) {
      if (a.type === 'category') {
        a.axisLabel = Object.assign({}, a.axisLabel, { width: 88 });
        return;
      }
      a.nameLocation = 'end';
      a.nameGap = 6;
      a.nameTextStyle = { align: a.position === 'right' ? 'right' : 'left' };
    });
    each(option.xAxis, function (a) {
      if (a.type === 'category') a.axisLabel = Object.assign({}, a.axisLabel, { width: 70 });
    });
    return option;
  }

  function prepare(option) {
    (option.series || []).forEach(function (s) {
      if (typeof s.renderItem === 'string') {
        if (!renderers[s.renderItem]) throw new Error('no renderer named ' + s.renderItem);
        s.renderItem = renderers[s.renderItem];
      }
    });
    if (option.tooltip && !option.tooltip.valueFormatter) option.tooltip.valueFormatter = round;
    return option;
  }

  var drawn = [];
  (window.ttCharts || []).forEach(function (spec) {
    try {
      var el = document.getElementById(spec.id);
      var option = prepare(spec.option);
      wrapLegend(option, el);
      if (el.clientWidth < 560) option = narrow(option);
      var chart = echarts.init(el, null, { renderer: 'canvas' });
      chart.setOption(option);
      drawn.push(chart);
    } catch (e) {
      record('chart ' + spec.id + ': ' + e);
    }
  });
  window.addEventListener('resize', function () { drawn.forEach(function (c) { c.resize(); }); });
  var withCanvas = Array.prototype.filter.call(document.querySelectorAll('.chart'), function (el) {
    return el.querySelector('canvas') !== null;
  });
  document.body.setAttribute('data-charts', String(withCanvas.length));
  // data-overflow is how many pixels the page is wider than the window (0:
  // nothing scrolls sideways); data-overflow-by names the outermost
  // elements that stick out, for a test's message.
  var root = document.documentElement, vw = root.clientWidth;
  document.body.setAttribute('data-overflow', String(Math.max(0, root.scrollWidth - vw)));
  var out = [];
  Array.prototype.forEach.call(document.querySelectorAll('body *'), function (el) {
    var r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
    if (r.right > vw + 1 && p.right <= vw + 1 && out.length < 5) {
      out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : '') + ' ' + Math.round(r.right) + 'px');
    }
  });
  document.body.setAttribute('data-overflow-by', out.join('; '));
  document.body.setAttribute('data-ready', '1');
})();

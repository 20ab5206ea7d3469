# sources.cmake - the files of the report's web app, in the order the page
# needs them; output/CMakeLists.txt includes this and embeds them into the
# HTML writer (output/html/embed.cmake).
set(VIEWER_TEMPLATE ${CMAKE_CURRENT_LIST_DIR}/report.html)
set(VIEWER_CSS ${CMAKE_CURRENT_LIST_DIR}/flamegraph.css)
# Order matters: each script may use what the ones before it define.
set(VIEWER_JS
  js/format.js
  js/data.js
  js/kinds.js
  js/tab_kind.js
  js/calltree.js
  js/timeline.js
  js/transform.js
  js/measure.js
  js/palette.js
  js/diff.js
  js/search.js
  js/flame.js
  js/tooltip.js
  js/crumbs.js
  js/tabs.js
  js/sandwich.js
  js/functions.js
  js/table.js
  js/hot_lines.js
  js/sandwich_view.js
  js/timeline_view.js
  js/hash.js
  js/help.js
  js/selection.js
  js/keys.js
  js/pointer.js
  js/jsbar.js
  js/controls.js
  js/status.js
  js/app.js)
list(TRANSFORM VIEWER_JS PREPEND ${CMAKE_CURRENT_LIST_DIR}/)

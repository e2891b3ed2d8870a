/**
 * The class report (OUT/report.html): one self-contained page, inline CSS and inline SVG only
 * (no script, no font, no image, nothing fetched: its Content-Security-Policy forbids it), built
 * from the submissions' results JSON alone. It shows the pass rate of every case and how many
 * submissions each catalogued mistake was named on, as bar charts; a summary row per submission;
 * and a table per submission (case, status, points, mistake); each submission's total under the
 * extension policy beside its scores. Every text is escaped by escape.ts
 * htmlText (one line, control and bidi characters visible, capped, then HTML character
 * references): submission names, messages, case titles and mistake ids come from outside the
 * grader.
 */
import { CATALOGUE } from "../diagnose/catalogue.ts";
import { htmlText } from "../report/escape.ts";
import { everyRequiredPassed, passed } from "../results.ts";
import { extensionPolicyRule, parseExtensionPolicy } from "../totals.ts";
import { namedMistakes, type CaseInfo, type SubmissionResults } from "./gradebook.ts";
import { shownName } from "./names.ts";
import { byCodeUnits } from "./shard.ts";

/** One bar of a horizontal bar chart. */
interface Bar {
  label: string;
  /** Shown on hover (an SVG <title>). */
  tooltip: string;
  /** The bar's length as a share of the full length, 0 to 1. */
  share: number;
  /** Written after the bar, e.g. "18/20 (90%)". */
  text: string;
  /** A CSS class for the bar's colour. */
  tone: string;
  /** Drawn with a muted label (extension cases). */
  muted?: boolean;
}

const ROW = 20;
const BAR_LENGTH = 360;
const TEXT_WIDTH = 120;
const CHAR_WIDTH = 7.3; // 12px monospace

/** A horizontal bar chart as inline SVG; every bar is a rect.bar with its share in data-share. */
function barChart(id: string, title: string, bars: readonly Bar[]): string {
  const labelWidth = Math.ceil(
    // A loop, not a spread into Math.max: a forged results file may name any number of mistakes.
    Math.min(
      60,
      bars.reduce((widest, b) => Math.max(widest, b.label.length), 8),
    ) *
      CHAR_WIDTH +
      12,
  );
  const width = labelWidth + BAR_LENGTH + TEXT_WIDTH;
  const height = Math.max(1, bars.length) * ROW + 8;
  const rows = bars.map((bar, i) => {
    const y = 4 + i * ROW;
    const length = Math.round(Math.max(0, Math.min(1, bar.share)) * BAR_LENGTH * 10) / 10;
    const label = bar.label.length > 60 ? `${bar.label.slice(0, 59)}…` : bar.label; // the tooltip has it all
    return [
      `<g class="row"><title>${htmlText(bar.tooltip)}</title>`,
      `<rect class="track" x="${labelWidth}" y="${y + 3}" width="${BAR_LENGTH}" height="${ROW - 6}"/>`,
      `<rect class="bar ${bar.tone}" data-share="${bar.share.toFixed(4)}" x="${labelWidth}" y="${y + 3}" width="${length}" height="${ROW - 6}"/>`,
      `<text class="label${bar.muted === true ? " muted" : ""}" x="${labelWidth - 8}" y="${y + ROW / 2}" text-anchor="end" dominant-baseline="central">${htmlText(label)}</text>`,
      `<text class="value" x="${labelWidth + BAR_LENGTH + 8}" y="${y + ROW / 2}" dominant-baseline="central">${htmlText(bar.text)}</text>`,
      `</g>`,
    ].join("");
  });
  return [
    `<svg id="${id}" class="chart" role="img" aria-labelledby="${id}-title" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${id}-title">${htmlText(title)}</title>`,
    ...rows,
    `</svg>`,
  ].join("\n");
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** The pass-rate chart's bars: one per case, in fixture order. */
function passRateBars(submissions: readonly SubmissionResults[], cases: readonly CaseInfo[]) {
  const passes = new Map<string, number>();
  for (const s of submissions) {
    for (const c of s.cases) if (passed(c)) passes.set(c.id, (passes.get(c.id) ?? 0) + 1);
  }
  return cases.map((c): Bar => {
    const passed = passes.get(c.id) ?? 0;
    const share = submissions.length === 0 ? 0 : passed / submissions.length;
    return {
      label: c.id,
      tooltip: `${c.id}${c.required ? "" : " (extension)"}: ${c.title}. ${passed} of ${submissions.length} submissions passed.`,
      share,
      text: `${passed}/${submissions.length} (${percent(share)})`,
      tone: share >= 0.8 ? "good" : share >= 0.5 ? "fair" : "poor",
      muted: !c.required,
    };
  });
}

/**
 * How many submissions each mistake was named on (on at least one case that did not pass): every
 * catalogued mistake in catalogue order, then any other id the results name, in code-unit order.
 */
export function mistakeCounts(submissions: readonly SubmissionResults[]): Map<string, number> {
  const counts = new Map<string, number>([...CATALOGUE.keys()].map((id) => [id, 0]));
  const others: string[] = [];
  for (const s of submissions) {
    for (const id of namedMistakes(s)) {
      if (!counts.has(id)) others.push(id);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  const ordered = new Map([...counts].filter(([id]) => CATALOGUE.has(id)));
  for (const id of [...new Set(others)].sort(byCodeUnits)) ordered.set(id, counts.get(id) ?? 0);
  return ordered;
}

function mistakeBars(submissions: readonly SubmissionResults[]): Bar[] {
  return [...mistakeCounts(submissions)].map(([id, count]): Bar => {
    const mistake = CATALOGUE.get(id);
    const share = submissions.length === 0 ? 0 : count / submissions.length;
    return {
      label: id,
      tooltip: `${id}${mistake === undefined ? " (not in this kit's catalogue)" : `: ${mistake.name}`}. Named on ${count} of ${submissions.length} submissions.`,
      share,
      text: `${count} (${percent(share)})`,
      tone: "mistake",
    };
  });
}

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px auto; max-width: 1100px; padding: 0 16px; color: #1d232b; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid #d8dee4; padding-bottom: 4px; }
.meta { color: #57606a; margin: 0 0 16px; }
.partial { background: #fff8c5; border: 1px solid #d4a72c; padding: 8px 12px; }
.figures { display: flex; gap: 24px; flex-wrap: wrap; margin: 12px 0; }
.figure { border: 1px solid #d8dee4; border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.figure b { display: block; font-size: 22px; }
.chart { display: block; max-width: 100%; height: auto; }
.chart .label, .chart .value { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; fill: #1d232b; }
.chart .value { fill: #57606a; }
.chart .label.muted { fill: #6e7781; font-style: italic; }
.chart .track { fill: #f0f2f4; }
.chart .good { fill: #2da44e; } .chart .fair { fill: #d4a72c; } .chart .poor { fill: #cf222e; }
.chart .mistake { fill: #8250df; }
.legend { color: #57606a; font-size: 13px; margin: 4px 0 0; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 4px 0 10px; }
.swatch.good { background: #2da44e; } .swatch.fair { background: #d4a72c; } .swatch.poor { background: #cf222e; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { text-align: left; padding: 3px 10px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.name { overflow-wrap: anywhere; }
.pass { color: #1a7f37; } .fail { color: #cf222e; } .error { color: #a40e26; font-weight: 600; }
.timeout { color: #bc4c00; } .skipped { color: #6e7781; }
details { border: 1px solid #d8dee4; border-radius: 6px; margin: 8px 0; padding: 4px 12px; }
summary { cursor: pointer; padding: 4px 0; }
.ext { color: #6e7781; font-size: 12px; }
`;

/** The summary table: one row per submission, linking to its own table. */
function summaryTable(
  rows: readonly { anchor: string; s: SubmissionResults }[],
  cases: readonly CaseInfo[],
): string {
  const body = rows.map(({ anchor, s }) => {
    const passes = s.cases.filter(passed).length;
    const named = namedMistakes(s);
    const notPassed = (["fail", "error", "timeout", "skipped"] as const)
      .map((status) => [status, s.cases.filter((c) => c.status === status).length] as const)
      .filter(([, count]) => count > 0)
      .map(([status, count]) => `<span class="${status}">${count} ${status}</span>`)
      .join(", ");
    return `<tr><td class="name"><a href="#${anchor}">${htmlText(shownName(s.submission))}</a></td><td class="num">${s.score}/${s.maxScore}</td><td class="num">${s.extensionScore}/${s.extensionMaxScore}</td><td class="num">${s.total}/${s.maxTotal}</td><td class="num">${passes}/${cases.length}</td><td>${notPassed}</td><td class="id">${named.map((id) => htmlText(id)).join(", ")}</td></tr>`;
  });
  return [
    `<table id="submissions"><thead><tr><th>Submission</th><th>Required</th><th>Extension</th><th>Total</th><th>Cases passed</th><th>Not passed</th><th>Mistakes named (main first)</th></tr></thead><tbody>`,
    ...body,
    `</tbody></table>`,
  ].join("\n");
}

/** One submission's table: case, status, points, mistake. */
function submissionDetails(anchor: string, s: SubmissionResults): string {
  const rows = s.cases.map(
    (c) =>
      `<tr><td class="id">${htmlText(c.id)}${c.required ? "" : ` <span class="ext">extension</span>`}</td><td class="${htmlText(c.status)}" title="${htmlText(c.reason ?? "")}">${htmlText(c.status)}</td><td class="num">${c.points}/${c.maxPoints}</td><td class="id">${c.mistake === null ? "" : htmlText(c.mistake)}</td></tr>`,
  );
  // The one failure of a submission no case of which ran: its reason and first error.
  const problem =
    s.notGraded === null
      ? undefined
      : { message: `${s.notGraded.reason}: ${s.notGraded.errors[0] ?? ""}` };
  return [
    `<details id="${anchor}"><summary><b class="name">${htmlText(shownName(s.submission))}</b>: ${s.score}/${s.maxScore} required, ${s.extensionScore}/${s.extensionMaxScore} extension, total ${s.total}/${s.maxTotal}</summary>`,
    problem === undefined ? "" : `<p class="error">${htmlText(problem.message)}</p>`,
    `<table><thead><tr><th>Case</th><th>Status</th><th>Points</th><th>Mistake</th></tr></thead><tbody>`,
    ...rows,
    `</tbody></table></details>`,
  ].join("\n");
}

/**
 * The class report as one HTML document.
 *
 * @param submissions every submission's results JSON, in any order (shown sorted by name)
 * @param cases the batch's cases in fixture order
 * @param kit the kit stamp every result carries
 * @param missing folders of the class that have no results in the report (a merge with
 *   --allow-partial): the report says at its top that it is partial, naming them
 */
export function reportHtml(
  submissions: readonly SubmissionResults[],
  cases: readonly CaseInfo[],
  kit: { version: string; fixtures: string },
  missing: readonly string[] = [],
): string {
  const sorted = [...submissions].sort((a, b) => byCodeUnits(a.submission, b.submission));
  const rows = sorted.map((s, i) => ({ anchor: `submission-${i + 1}`, s }));
  const full = sorted.filter((s) => s.maxScore > 0 && everyRequiredPassed(s.cases)).length;
  const mean =
    sorted.length === 0 ? 0 : sorted.reduce((total, s) => total + s.score, 0) / sorted.length;
  const maxScore = cases.filter((c) => c.required).reduce((total, c) => total + c.maxPoints, 0);
  const withMistake = sorted.filter((s) => namedMistakes(s).length > 0).length;
  // One policy for a batch (a merge refuses shards graded with two).
  const policies = [...new Set(sorted.map((s) => s.extensionPolicy))];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Class report: Kafka range assignment</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Class report: Kafka range assignment</h1>
<p class="meta">Kit ${htmlText(kit.version)}, case set <code>${htmlText(kit.fixtures)}</code>; ${sorted.length} submission${sorted.length === 1 ? "" : "s"}, ${cases.length} case${cases.length === 1 ? "" : "s"}.</p>
${missing.length === 0 ? "" : `<p class="partial"><b>A partial class:</b> ${missing.length} of its ${sorted.length + missing.length} folders are not in this report (merged with --allow-partial): ${missing.map((name) => `<code>${htmlText(shownName(name))}</code>`).join(", ")}.</p>\n`}<div class="figures">
<div class="figure"><b>${sorted.length}</b>submissions</div>
<div class="figure"><b>${full}</b>every required case passed</div>
<div class="figure"><b>${mean.toFixed(1)}/${maxScore}</b>mean required score</div>
<div class="figure"><b>${withMistake}</b>with a catalogued mistake named</div>
</div>
<h2>Pass rate per case</h2>
${barChart("pass-rate", "Pass rate per case", passRateBars(sorted, cases))}
<p class="legend">Share of submissions that passed each case:<span class="swatch good"></span>80% or more<span class="swatch fair"></span>50% to 79%<span class="swatch poor"></span>under 50%. Extension cases in <i>grey italics</i>. Hover a bar for the case's title.</p>
<h2>Mistakes diagnosed</h2>
${barChart("mistakes", "Submissions each catalogued mistake was named on", mistakeBars(sorted))}
<p class="legend">Submissions on which the grader named the mistake on at least one case (npm run grade -- --list-mistakes explains each).</p>
<h2>Submissions</h2>
${summaryTable(rows, cases)}
${policies.length === 0 ? "" : `<p class="legend">Total: the required score with extension points as the extension policy counts them (${policies.map((name) => `${htmlText(name)}: ${htmlText(extensionPolicyRule(parseExtensionPolicy(name)))}`).join("; ")}).</p>`}
${rows.map(({ anchor, s }) => submissionDetails(anchor, s)).join("\n")}
</body>
</html>
`;
}

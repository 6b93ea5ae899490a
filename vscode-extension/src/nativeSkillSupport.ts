/**
 * Living beside VS Code's own skill support (1.139: the `skill` language, its validator, hover and key
 * completion). In a `skill` document Albedo leaves out what VS Code already shows: a diagnostic whose twin
 * VS Code's validator shows on the same line at the same severity or a graver one, its completion item for a key VS Code completes, and the
 * summary in its hover of a key VS Code describes. What only Albedo knows stays. Where VS Code has no skill
 * language (1.96), nothing changes. The rules are in nativeSkillRules.ts.
 *
 * Diagnostics are pulled (textDocument/diagnostic). VS Code validates a skill only while an editor shows it
 * and after a short delay, so when its findings change the client pulls again and the filter runs anew; an
 * `unchanged` report is answered from the kept full one, so the filter sees every item each time.
 *
 * What the filter leaves out is kept too (until the next filter of that document, or its close), so
 * `albedoDiagnostics` gives the Skills view every Albedo finding, not only the shown ones.
 */
import * as vscode from 'vscode';
import { DocumentDiagnosticRequest, type LanguageClient, type Middleware, vsdiag } from 'vscode-languageclient/node';
import {
  albedoFindings,
  albedoOnlyHover,
  type Finding,
  hasNativeTwin,
  hoverKey,
  NATIVE_SKILL_KEYS,
  NATIVE_SKILL_LANGUAGE,
  SERVER_SOURCE,
} from './nativeSkillRules';
import {
  albedoLocations,
  COPILOT_LOCATIONS_SETTING,
  type Locations,
  VSCODE_LOCATIONS_KEY,
  VSCODE_LOCATIONS_SECTION,
  withAlbedoLocations,
  withoutAlbedoLocations,
} from './nativeSkillLocations';
import type { ClientSource } from './clientSource';
import { defaultSettings } from './declared';

const codeOf = (diagnostic: vscode.Diagnostic) => (typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : diagnostic.code?.toString());
const finding = (diagnostic: vscode.Diagnostic): Finding => ({ code: codeOf(diagnostic), message: diagnostic.message, line: diagnostic.range.start.line, severity: diagnostic.severity });
/** When two Albedo diagnostics are the same finding. */
const sameFinding = (diagnostic: vscode.Diagnostic) => JSON.stringify([codeOf(diagnostic), diagnostic.range.start.line, diagnostic.message]);
const isSkillDocument = (uri: vscode.Uri) =>
  vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString() && document.languageId === NATIVE_SKILL_LANGUAGE);

class NativeSkillSupport {
  /** The last full report per document, unfiltered, by result id. */
  private readonly reports = new Map<string, { resultId: string | undefined; items: vscode.Diagnostic[] }>();
  /** The items the filter last left out of each document (their twin is shown), by document URI. */
  private readonly leftOut = new Map<string, vscode.Diagnostic[]>();

  /**
   * Every Albedo diagnostic VS Code holds, with those left out beside their VS Code twin put back, per file:
   * what the Skills view counts (it must not lose a skill's error badge while VS Code shows the twin as a
   * warning, nor count VS Code's own findings or another extension's).
   */
  albedoDiagnostics(): [vscode.Uri, vscode.Diagnostic[]][] {
    const shown = new Map(vscode.languages.getDiagnostics().map(([uri, items]) => [uri.toString(), [uri, items] as const]));
    for (const key of this.leftOut.keys()) {
      if (!shown.has(key)) {
        shown.set(key, [vscode.Uri.parse(key), []]);
      }
    }
    return [...shown.entries()].map(([key, [uri, items]]) => [uri, albedoFindings(items, this.leftOut.get(key) ?? [], sameFinding)]);
  }

  /** The diagnostics VS Code itself shows for `uri` (every source but the server's). */
  private nativeFindings(uri: vscode.Uri): Finding[] {
    return vscode.languages
      .getDiagnostics(uri)
      .filter((diagnostic) => diagnostic.source !== SERVER_SOURCE)
      .map(finding);
  }

  private filter(uri: vscode.Uri, items: vscode.Diagnostic[]): vscode.Diagnostic[] {
    const native = isSkillDocument(uri) ? this.nativeFindings(uri) : [];
    const kept = native.length === 0 ? items : items.filter((item) => !hasNativeTwin(finding(item), native));
    const leftOut = items.filter((item) => !kept.includes(item));
    if (leftOut.length > 0) {
      this.leftOut.set(uri.toString(), leftOut);
    } else {
      this.leftOut.delete(uri.toString());
    }
    return kept;
  }

  readonly middleware: Middleware = {
    provideDiagnostics: async (document, previousResultId, token, next) => {
      const report = await next(document, previousResultId, token);
      const uri = document instanceof vscode.Uri ? document : document.uri;
      const key = uri.toString();
      if (report?.kind === vsdiag.DocumentDiagnosticReportKind.full) {
        this.reports.set(key, { resultId: report.resultId, items: report.items });
        return { ...report, items: this.filter(uri, report.items) };
      }
      const kept = this.reports.get(key);
      if (report?.kind === vsdiag.DocumentDiagnosticReportKind.unChanged && kept !== undefined && kept.resultId === report.resultId) {
        return { kind: vsdiag.DocumentDiagnosticReportKind.full, resultId: report.resultId, items: this.filter(uri, kept.items) };
      }
      return report;
    },
    provideCompletionItem: async (document, position, context, token, next) => {
      const result = await next(document, position, context, token);
      if (document.languageId !== NATIVE_SKILL_LANGUAGE || result === null || result === undefined) {
        return result;
      }
      const keep = (item: vscode.CompletionItem) => !NATIVE_SKILL_KEYS.has(typeof item.label === 'string' ? item.label : item.label.label);
      return Array.isArray(result) ? result.filter(keep) : { ...result, items: result.items.filter(keep) };
    },
    provideHover: async (document, position, token, next) => {
      const hover = await next(document, position, token);
      if (document.languageId !== NATIVE_SKILL_LANGUAGE || hover === null || hover === undefined) {
        return hover;
      }
      const contents = hover.contents.map((content) => {
        const markdown = content instanceof vscode.MarkdownString ? content.value : typeof content === 'string' ? content : undefined;
        const key = markdown !== undefined ? hoverKey(markdown) : undefined;
        return markdown !== undefined && key !== undefined && NATIVE_SKILL_KEYS.has(key) ? new vscode.MarkdownString(albedoOnlyHover(key, markdown)) : content;
      });
      return new vscode.Hover(contents, hover.range);
    },
  };

  /**
   * When VS Code's own findings on a skill document change, pull again so the filter sees them. A closed
   * document is no longer filtered (the server's findings for it come as they are): what was left out of it
   * is forgotten.
   */
  listen(server: ClientSource): vscode.Disposable {
    const closed = vscode.workspace.onDidCloseTextDocument((document) => this.leftOut.delete(document.uri.toString()));
    const changed = vscode.languages.onDidChangeDiagnostics((event) => {
      const client = server.running();
      const stale = event.uris.some((uri) => {
        const kept = this.reports.get(uri.toString());
        if (kept === undefined || !isSkillDocument(uri)) {
          return false;
        }
        const native = this.nativeFindings(uri);
        const wouldLeaveOut = kept.items.filter((item) => hasNativeTwin(finding(item), native)).length;
        return wouldLeaveOut !== (this.leftOut.get(uri.toString())?.length ?? 0);
      });
      if (stale && client !== undefined) {
        refreshPulledDiagnostics(client);
      }
    });
    return { dispose: () => [closed, changed].forEach((listener) => listener.dispose()) };
  }
}

/**
 * `albedoSkills.copilotSkillLocations`: while on, Albedo's roots are in VS Code's `chat.agentSkillsLocations`
 * (user settings); turned off, the ones it added go. VS Code without that setting (1.96) is left alone.
 */
export function syncCopilotSkillLocations(channel: vscode.LogOutputChannel): vscode.Disposable {
  const apply = async (turnedOff: boolean) => {
    const albedo = vscode.workspace.getConfiguration('albedoSkills');
    const chat = vscode.workspace.getConfiguration(VSCODE_LOCATIONS_SECTION);
    const seen = chat.inspect<Locations>(VSCODE_LOCATIONS_KEY);
    const on = albedo.get<boolean>(COPILOT_LOCATIONS_SETTING, defaultSettings().copilotSkillLocations);
    if (seen?.defaultValue === undefined) {
      if (on) {
        channel.info(`albedoSkills.${COPILOT_LOCATIONS_SETTING}: this VS Code has no ${VSCODE_LOCATIONS_SECTION}.${VSCODE_LOCATIONS_KEY}; nothing to add`);
      }
      return;
    }
    const wanted = albedoLocations(albedo.get<boolean>('userRoots', true), albedo.get<string>('home', ''));
    const value = on
      ? withAlbedoLocations(seen.globalValue, chat.get<Locations>(VSCODE_LOCATIONS_KEY), wanted)
      : turnedOff
        ? withoutAlbedoLocations(seen.globalValue, seen.defaultValue, albedoLocations(true, ''))
        : undefined;
    if (value === undefined) {
      return;
    }
    try {
      // Nothing left of the person's own: the setting goes from the user settings, back to VS Code's default.
      await chat.update(VSCODE_LOCATIONS_KEY, Object.keys(value).length > 0 ? value : undefined, vscode.ConfigurationTarget.Global);
      channel.info(`${VSCODE_LOCATIONS_SECTION}.${VSCODE_LOCATIONS_KEY} (user settings) is now ${JSON.stringify(value)}`);
    } catch (error) {
      channel.warn(`albedoSkills.${COPILOT_LOCATIONS_SETTING}: could not write ${VSCODE_LOCATIONS_SECTION}.${VSCODE_LOCATIONS_KEY}: ${String(error)}`);
    }
  };
  void apply(false);
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(`albedoSkills.${COPILOT_LOCATIONS_SETTING}`) || event.affectsConfiguration('albedoSkills.userRoots') || event.affectsConfiguration('albedoSkills.home')) {
      void apply(event.affectsConfiguration(`albedoSkills.${COPILOT_LOCATIONS_SETTING}`));
    }
  });
}

function refreshPulledDiagnostics(client: LanguageClient): void {
  try {
    client.getFeature(DocumentDiagnosticRequest.method).refresh();
  } catch {
    // a server without pull diagnostics: nothing was filtered there
  }
}

/** One per extension: the client's middleware (extension.ts) and the listener share what was filtered. */
export const nativeSkillSupport = new NativeSkillSupport();

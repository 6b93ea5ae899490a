// A fake language model for the e2e tests (VS Code 1.104+: `lm.registerLanguageModelChatProvider` is stable
// there). It appends every request it receives, as JSON lines {messages: [{role, text}]}, to the file named by
// ALBEDO_FAKE_MODEL_LOG, and answers "Fake answer N." for the Nth request, so a test can read both what the
// model received and what the chat shows.
const fs = require('node:fs');
const vscode = require('vscode');

const VENDOR = 'albedo-fake';
const MODEL = {
  id: 'fake',
  name: 'Albedo Fake Model',
  family: 'albedo-fake',
  version: '1',
  maxInputTokens: 200000,
  maxOutputTokens: 4000,
  // Without these two VS Code answers "Language model unavailable" before any participant runs.
  isUserSelectable: true,
  capabilities: { toolCalling: true },
};

function roleName(role) {
  return role === vscode.LanguageModelChatMessageRole.User ? 'user' : role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : `role-${role}`;
}

function textOf(message) {
  return message.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `[${part.constructor.name}]`)).join('');
}

exports.activate = async function activate(context) {
  const log = process.env.ALBEDO_FAKE_MODEL_LOG;
  let requests = 0;
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      provideLanguageModelChatInformation: () => [MODEL],
      async provideLanguageModelChatResponse(_model, messages, _options, progress) {
        requests += 1;
        const record = { messages: messages.map((message) => ({ role: roleName(message.role), text: textOf(message) })) };
        if (log) {
          fs.appendFileSync(log, `${JSON.stringify(record)}\n`);
        }
        progress.report(new vscode.LanguageModelTextPart(`Fake answer ${requests}.`));
      },
      provideTokenCount: (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
    }),
    // Picks this model in the chat (the model picker has nothing else: no Copilot sign-in here).
    vscode.commands.registerCommand('albedoFake.useModel', () =>
      vscode.commands.executeCommand('workbench.action.chat.open', { query: '', isPartialQuery: true, modelSelector: { vendor: VENDOR, id: MODEL.id } }),
    ),
  );
  await vscode.lm.selectChatModels({ vendor: VENDOR });
};

exports.deactivate = function deactivate() {};

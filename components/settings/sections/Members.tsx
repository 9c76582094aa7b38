'use client';

import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { Settings } from '@/lib/contract/settings';
import { toolLabel } from '@/lib/shared/words/tools';
import { inputClass, Section, type SettingsForm } from '../form';

type ToolName = Settings['memberDisabledTools'][number];

/** Settings → Members: what members may use (the owner's and admins' section). */
export function MembersSection({ form }: { form: SettingsForm }) {
  const { draft, view, set, field } = form;
  /** The models the servers offer now, to tick; a name kept that no server offers is still shown. */
  const [served, setServed] = useState<string[]>([]);
  useEffect(() => {
    api
      .listModels()
      .then((r) => setServed(r.models.map((m) => m.id)))
      .catch(() => undefined);
  }, []);
  const modelChoices = [...new Set([...served, ...draft.memberModels])];
  /** The names as typed, when no server lists its models (a comma stays while it is typed). */
  const [typed, setTyped] = useState(draft.memberModels.join(', '));
  return (
    <Section
      title="Members"
      hint="What members may use. Each member has their own name, instructions, thinking, voice and memory; the rest of these settings are the household's."
    >
      {field(
        'memberDisabledTools',
        "Tools members can't use",
        <div className="grid gap-1 sm:grid-cols-2" data-testid="member-tools">
          {view.tools.map((tool) => (
            <label key={tool.name} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                data-testid={`member-tool-${tool.name}`}
                checked={!draft.memberDisabledTools.includes(tool.name as ToolName)}
                onChange={(e) =>
                  set(
                    'memberDisabledTools',
                    e.target.checked
                      ? draft.memberDisabledTools.filter((t) => t !== tool.name)
                      : [...draft.memberDisabledTools, tool.name as ToolName],
                    true,
                  )
                }
              />
              {toolLabel(tool.name)}
            </label>
          ))}
        </div>,
        'Ticked: members are offered it (when it is on for everyone above).',
      )}
      {field(
        'memberToolServers',
        'Tool servers for members',
        <label className="flex items-center gap-2 text-sm">
          <input
            id="setting-memberToolServers-input"
            type="checkbox"
            checked={draft.memberToolServers}
            onChange={(e) => set('memberToolServers', e.target.checked, true)}
          />
          Members&apos; turns may use the tool servers&apos; tools
        </label>,
        'A tool server reaches what it reaches for Hearth: your files, your calendar, your home. Off by default.',
      )}
      {field(
        'memberModels',
        'Models members may choose',
        modelChoices.length ? (
          <div className="grid gap-1 sm:grid-cols-2" data-testid="member-models">
            {modelChoices.map((id) => (
              <label key={id} className="flex items-center gap-2 text-sm break-all">
                <input
                  type="checkbox"
                  data-testid="member-model"
                  data-model={id}
                  checked={draft.memberModels.includes(id)}
                  onChange={(e) =>
                    set('memberModels', e.target.checked ? [...draft.memberModels, id] : draft.memberModels.filter((m) => m !== id), true)
                  }
                />
                {id}
              </label>
            ))}
          </div>
        ) : (
          <input
            id="setting-memberModels-input"
            className={inputClass}
            value={typed}
            placeholder="model ids, separated by commas"
            onChange={(e) => {
              setTyped(e.target.value);
              set(
                'memberModels',
                e.target.value
                  .split(',')
                  .map((m) => m.trim())
                  .filter(Boolean),
              );
            }}
          />
        ),
        'None ticked: any model a server offers. The default model is always theirs.',
      )}
    </Section>
  );
}

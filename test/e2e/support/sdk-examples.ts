import * as sdk from '@pieces.app/pieces-os-client';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';

/**
 * Example values of the official TS SDK's types, read from its own declarations (dist/**.d.ts):
 * for a model, an object with every required property (recursively) and nothing else; for an
 * enum, its first value; `Date` a date, strings `x`, numbers 1, arrays and maps empty. What the
 * SDK's `XToJSON` then writes is a body valid for its request model. Used by the walker
 * (sdk-operations.spec.ts) for the request parameters of every operation.
 */
const DIST = join(dirname(require.resolve('@pieces.app/pieces-os-client/package.json')), 'dist');

interface Property {
  name: string;
  optional: boolean;
  type: ts.TypeNode;
}

const declarations = new Map<string, ts.SourceFile>();

function sourceOf(file: string): ts.SourceFile | null {
  if (!declarations.has(file)) {
    declarations.set(
      file,
      existsSync(file)
        ? ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
        : (null as never),
    );
  }
  return declarations.get(file) ?? null;
}

/** The properties of interface `name` declared in `file`, or null. */
function interfaceOf(file: string, name: string): Property[] | null {
  const source = sourceOf(file);
  if (!source) return null;
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) {
      return statement.members.filter(ts.isPropertySignature).map((m) => ({
        name: (m.name as ts.Identifier).text ?? (m.name as ts.StringLiteral).text,
        optional: m.questionToken !== undefined,
        type: m.type!,
      }));
    }
  }
  return null;
}

/** A type alias `name` declared in `file` (unions of models, ...), or null. */
function aliasOf(file: string, name: string): ts.TypeNode | null {
  const source = sourceOf(file);
  for (const statement of source?.statements ?? []) {
    if (
      ts.isTypeAliasDeclaration(statement) &&
      statement.name.text === name &&
      !/typeof/.test(statement.type.getText())
    )
      return statement.type;
  }
  return null;
}

const sdkValues = sdk as unknown as Record<string, unknown>;

/** An example of the SDK model (or enum) `name`; `seen` holds the models being built (a required cycle ends in `{}`). */
export function exampleOf(name: string, seen: string[] = []): unknown {
  const enumeration = sdkValues[name];
  if (enumeration && typeof enumeration === 'object') return Object.values(enumeration as Record<string, unknown>)[0];
  if (name === 'Date') return new Date();
  const file = join(DIST, 'models', `${name}.d.ts`);
  const alias = aliasOf(file, name);
  if (alias) return exampleOfType(alias, seen);
  const properties = interfaceOf(file, name);
  if (!properties) throw new Error(`no declaration of the SDK model ${name}`);
  if (seen.includes(name)) return {};
  const out: Record<string, unknown> = {};
  for (const p of properties) if (!p.optional) out[p.name] = exampleOfType(p.type, [...seen, name]);
  return out;
}

function exampleOfType(type: ts.TypeNode, seen: string[]): unknown {
  switch (type.kind) {
    case ts.SyntaxKind.StringKeyword:
      return 'x';
    case ts.SyntaxKind.NumberKeyword:
      return 1;
    case ts.SyntaxKind.BooleanKeyword:
      return false;
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.ObjectKeyword:
    case ts.SyntaxKind.UnknownKeyword:
      return {};
  }
  if (ts.isArrayTypeNode(type)) return [];
  if (ts.isUnionTypeNode(type))
    return exampleOfType(
      type.types.find((t) => t.kind !== ts.SyntaxKind.NullKeyword && !ts.isLiteralTypeNode(t)) ?? type.types[0],
      seen,
    );
  if (ts.isLiteralTypeNode(type)) return ts.isStringLiteral(type.literal) ? type.literal.text : null;
  if (ts.isTypeLiteralNode(type)) return {};
  if (ts.isParenthesizedTypeNode(type)) return exampleOfType(type.type, seen);
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText();
    if (name === 'Array' || name === 'Set') return [];
    if (name === 'Blob') return new Blob(['x']);
    return exampleOf(name, seen);
  }
  throw new Error(`no example for the type ${type.getText()}`);
}

/**
 * Example request parameters of operation `operationId` of API class `api`: every required
 * parameter, and the body parameter (optional or not) when there is one.
 */
export function exampleParameters(api: string, operationId: string, bodyParam: string | null): Record<string, unknown> {
  const request = interfaceOf(
    join(DIST, 'apis', `${api}.d.ts`),
    `${operationId[0].toUpperCase()}${operationId.slice(1)}Request`,
  );
  const out: Record<string, unknown> = {};
  for (const p of request ?? []) {
    if (!p.optional || p.name === bodyParam) out[p.name] = exampleOfType(p.type, []);
  }
  return out;
}

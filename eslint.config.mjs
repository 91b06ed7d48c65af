// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * A module-level value of the core built by a call is declared `/* @__PURE__ *\/ ifUsed(() => …)`
 * (layers/core/if-used.ts), so a function's bundle leaves out what the function never reads.
 */
const ifUsedRule = {
  meta: {
    type: 'problem',
    messages: {
      form: 'Declare a module-level value built by a call as `/* @__PURE__ */ ifUsed(() => …)` (layers/core/if-used.ts), so a bundle that never reads it leaves it out.',
    },
  },
  /** @param {import('eslint').Rule.RuleContext} context */
  create(context) {
    /** @param {import('eslint').Rule.Node} declaration */
    const check = (declaration) => {
      if (declaration.type !== 'VariableDeclaration') return;
      for (const { init } of declaration.declarations) {
        if (init?.type !== 'CallExpression') continue;
        const declared =
          init.callee.type === 'Identifier' &&
          init.callee.name === 'ifUsed' &&
          init.arguments.length === 1 &&
          init.arguments[0]?.type === 'ArrowFunctionExpression' &&
          context.sourceCode.getCommentsBefore(init).some((comment) => comment.value.trim() === '@__PURE__');
        if (!declared) context.report({ node: init, messageId: 'form' });
      }
    };
    return { 'Program > VariableDeclaration': check, 'Program > ExportNamedDeclaration > VariableDeclaration': check };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.twin/', 'coverage/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['layers/**/*.ts'],
    plugins: { bundle: { rules: { 'if-used': ifUsedRule } } },
    rules: { 'bundle/if-used': 'error' },
  },
);

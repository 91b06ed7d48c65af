// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * A module-level value of the core built by a call is declared `/* @__PURE__ *\/ ifUsed(() => …)`
 * (layers/core/if-used.ts), so a function's bundle leaves out what the function never reads. An Intl object
 * (a sentence segmenter takes about 9 ms to build) is made on first use instead: a bundle keeps whatever its
 * module's functions reach, and a function that reaches it may never use it.
 */
const ifUsedRule = {
  meta: {
    type: 'problem',
    messages: {
      form: 'Declare a module-level value built by a call as `/* @__PURE__ */ ifUsed(() => …)` (layers/core/if-used.ts), so a bundle that never reads it leaves it out.',
      intl: 'Make an Intl object on first use, not as the module loads: building one costs milliseconds of every cold start that loads this module.',
    },
  },
  /** @param {import('eslint').Rule.RuleContext} context */
  create(context) {
    /** @param {import('eslint').Rule.Node} declaration */
    const check = (declaration) => {
      if (declaration.type !== 'VariableDeclaration') return;
      for (const { init } of declaration.declarations) {
        if (init?.type === 'NewExpression' && init.callee.type === 'MemberExpression' && init.callee.object.type === 'Identifier') {
          if (init.callee.object.name === 'Intl') context.report({ node: init, messageId: 'intl' });
          continue;
        }
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

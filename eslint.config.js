import base from '@wsc/eslint-config';

export default base;

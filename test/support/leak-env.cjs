const { TestEnvironment } = require('jest-environment-node');
const fs = require('fs');
let armed = false;
module.exports = class extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.file = context.testPath.replace(/.*\/test\//, '');
    if (!armed) {
      armed = true;
      process.on('exit', () => fs.appendFileSync('/tmp/leak4.txt', `${process.pid} exit ${Date.now()} ${JSON.stringify(process.memoryUsage())}\n`));
    }
  }
  async teardown() {
    await super.teardown();
    fs.appendFileSync('/tmp/leak4.txt', `${process.pid} done ${Date.now()} ${this.file}\n`);
  }
};

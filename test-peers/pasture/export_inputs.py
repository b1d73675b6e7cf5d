# Every example of fediverse-pasture-inputs as the activity bovine builds for it, as JSON on
# stdout: [{"input", "title", "index", "activity"}, ...]. The activities are those of the
# package's own `zip-file` command (samples.zip): its ExampleTransformer wraps each example in a
# Create from http://actor.example to http://remote.example/ (the test puts real ids there).
import asyncio
import json
import sys

from fediverse_pasture_inputs import available
from fediverse_pasture_inputs.tool.transformer import ExampleTransformer


async def main():
    transformer = ExampleTransformer()
    corpus = []
    for name, data in sorted(available.items()):
        for index, example in enumerate(data.examples):
            activity = await transformer.create_activity(example)
            corpus.append(
                {"input": name, "title": data.title, "index": index, "activity": activity}
            )
    json.dump(corpus, sys.stdout)


asyncio.run(main())

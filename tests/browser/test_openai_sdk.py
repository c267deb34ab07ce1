"""The openai SDK extra in the browser site: no SDK there, so one sentence says so, and nothing raises."""


def test_the_sdk_extra_says_it_needs_local_jupyter_and_raises_nothing(lab):
    path = "extras/openai_sdk.ipynb"
    lab.open(path)
    ran = lab.run_all(path)
    code = [cell for cell in ran["cells"] if cell["cell_type"] == "code"]
    errors = [o for cell in code for o in cell["outputs"] if o["output_type"] == "error"]
    assert not errors, [f"{o['ename']}: {o['evalue']}" for o in errors]
    first = "".join("".join(o.get("text", "")) for o in code[0]["outputs"])
    assert first == ("The openai SDK cannot install in the browser (its compiled parts have no Pyodide build): "
                     "read the saved outputs here, or run this notebook in local Jupyter.\n")
    assert not lab.outside(), f"requests left the machine: {lab.outside()}"

"""What a question asks for, and which evidence sentence meets that need."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.asks import needs
from rag.answer.clauses import ask_clause, asked_part, without_user_context
from rag.answer.lists import list_length
from rag.answer.names import unknown_names, written
from rag.text.normalize import squash

ANNOTATED = "We collected labels from 12 annotators on 500 images. Annotators agreed strongly."
OWN_ACRONYM = "CBMs explain predictions with concepts. We train CBMs on images."
SCORED_TWICE = "Agents act in a world such as ScienceWorld. It gains 23 points in ScienceWorld and 2 in ALFWorld."


def met(question: str, sentence: str, *, label: str = "", text: str = "") -> bool:
    """Every need of the question is met by the sentence."""
    return all(n.met_by(sentence) for n in needs(question, label=label, text=text))


@pytest.mark.parametrize(
    ("question", "label", "text", "names"),
    [
        ("How many annotators labelled the images?", "", ANNOTATED, ["a number of annotators"]),
        ("How many annotators labelled the images?", "", "We crowdsource image labels.", ["a number of annotators"]),
        ("What is the codebook size?", "", "Our codebook has 8192 entries.", ["a number of codebook"]),
        ("What is the codebook size?", "", "", ["a number"]),
        ("By what percentage does it reduce memory?", "", "", ["a number", "a percentage"]),
        ("How much cheaper is training?", "", "Training is cheaper.", ["a number"]),  # no noun need
        ("How much of the accuracy is kept?", "", "It keeps accuracy.", ["a number of accuracy"]),
        # the counted thing of a speedup or a bound, after one more modifier
        ("What decoding throughput speedup does it give?", "", "High throughput.", ["a number of throughput"]),
        ("What cumulative regret bound is proven?", "", "Low regret.", ["a number of regret"]),
        ("What compression ratio do they apply?", "", "Compression matters.", ["a number of compression"]),
        # a wh-phrase headed by "papers" asks for papers; "bound" is their verb, not a measure
        ("Which papers bound the regret of online learners?", "", "Low regret.", []),
        ("What causes the collapse?", "", "", ["a cause", "a causal link"]),
        ("What is the source of the data?", "", "", []),
        # a relative "where" opens no question: the count is still what is asked
        (
            "In settings where rewards are hidden, across how many benchmarks did it win?",
            "",
            "Benchmarks.",
            ["a number of benchmarks"],
        ),
        ("By what factor is it faster?", "", "", ["a number"]),
        # several things asked without a count: a list leads when close to the best
        ("Which techniques did the study try?", "", "", ["a list"]),
        ("For which other sketching schemes does it hold?", "", "", ["a list"]),
        ("Which class does it use?", "", "", ["a kind of class"]),  # only orders (tests/test_kinds.py)
        ("Which datasets was it evaluated on?", "FooNet", "", ["names of datasets"]),
        ("Which benchmark datasets did they run it on?", "", "", ["names of datasets"]),
        # elliptical, in a conversation: the noun alone asks what it used
        ("Which datasets?", "", "", ["names of datasets"]),
        ("and what baselines?", "", "", ["names of baselines"]),
        ("What models are there?", "", "", []),
        # head noun is 'tasks', not a named benchmark; a list of two is no useful shape
        ("Which two benchmark tasks are named in the evaluation?", "", "", []),
        ("What are the three stages of the pipeline?", "", "", ["a list of 3"]),
        ("What is RLHF?", "", "", []),
        # the wh-word asks for papers, not for the names of the models they use
        ("Which papers use diffusion models to generate images?", "", "", []),
        ("Which works apply language models to code repair?", "", "", []),
        # "which X of …": the wh-word asks for X; "which kind of …" asks for the kind's members
        ("Which traits of generative models does the evaluation use?", "", "", []),
        ("Which kind of models did they evaluate?", "", "", ["names of models"]),
        ("Which of the datasets did they use?", "", "", ["names of datasets"]),
        ("What are the names of the models used?", "", "", ["names of models"]),
        # plural "dimensions" asks for aspects; a singular dimension is a number
        ("Along which dimensions is the benchmark evaluated?", "", "", ["a list"]),
        ("What embedding dimension is used?", "", "", ["a number"]),
        ("Who proposed the method?", "", "", []),
        # a coined name is asked: beside the named thing when the paper names that thing
        ("What are the names of the two algorithms?", "", "We develop two algorithms.", ["a name of algorithms"]),
        ("What is the new loss called?", "", "Our loss is new.", ["a name of loss"]),
        ("What are the two cooperating models called?", "", "", ["a name"]),
        ("What name does the paper give to the drop?", "", "", ["a name"]),
        # "grant" the verb asks for no funding
        ("What status should the field grant to the method?", "", "", ["a kind of status"]),
    ],
)
def test_need_kinds(question: str, label: str, text: str, names: list[str]) -> None:
    assert [n.name for n in needs(question, label=label, text=text)] == names


@pytest.mark.parametrize(
    ("sentence", "length"),
    [
        ("Interactions between modalities\u2014redundancy, uniqueness, and synergy\u2014determine it.", 3),
        ("It works at three levels: the state, the parameters, and the operator.", 3),
        ("We compare A, B and C on two tasks.", 3),
        ("We propose (1) a ratio test, (2) a prior and (3) a filter.", 3),
        ("Examples from medical and legal settings.", 2),
        ("We study this.", 1),
        ("Costs grow (see below), but slowly.", 1),
        ("It is fast, yet its accurate estimation is theoretical and hard.", 2),
    ],
)
def test_list_length(sentence: str, length: int) -> None:
    assert list_length(sentence) == length


@pytest.mark.parametrize(
    ("question", "sentence", "met_by"),
    [
        ("Which three kinds of interaction are measured?", "Redundancy, uniqueness, and synergy matter.", True),
        ("Which three kinds of interaction are measured?", "It operates at three levels.", True),
        ("Which three kinds of interaction are measured?", "We measure interaction and synergy.", False),
        ("What are the four stages?", "It has 4 stages.", True),
    ],
)
def test_list_need(question: str, sentence: str, met_by: bool) -> None:
    (need,) = needs(question)
    assert need.met_by(sentence) is met_by and not need.required


def test_a_count_of_what_the_paper_never_names_is_not_in_it() -> None:
    """ "How much memory" of a paper that never mentions memory: no number of it answers."""
    text = "We cluster views as they arrive. It runs in 3 passes."
    assert not any(met("How much memory does it use?", s, text=text) for s in text.split(". "))
    assert met("How many passes does it need?", "It runs in 3 passes.", text=text)


def test_first_wh_word_asking_a_name_needs_no_number() -> None:
    q = "Which quantity does the optimizer use to measure how much each parameter contributes?"
    assert not any("number" in n.name for n in needs(q, text="Each parameter contributes to the loss."))


@pytest.mark.parametrize(
    ("question", "label", "text", "meets", "misses"),
    [
        ("How many annotators labelled the images?", "", ANNOTATED, "Images were labelled by 12 annotators.", "Annotators agreed."),
        ("How many annotators labelled the images?", "", ANNOTATED, "Images were labelled by 12 annotators.", "We used 12 workers."),
        ("What is the codebook size?", "", "The codebook is learned.", "The codebook has 8192 entries.", "The codebook is learned jointly."),
        ("By what percentage does it reduce memory?", "", "", "It cuts memory by 40%.", "It cuts memory by 40."),
        ("By what percentage does it reduce memory?", "", "", "It cuts memory by 40 percent.", "It cuts memory a lot."),
        ("How much cheaper is training?", "", "Training is cheaper.", "Training is 3x cheaper.", "Training is cheaper."),
        ("Which datasets was it evaluated on?", "FooNet", "", "We evaluate on ImageNet-1K and GSM8K.", "We evaluate on standard datasets."),
        ("Which datasets was it evaluated on?", "FooNet", "", "We evaluate on ImageNet-1K.", "We evaluate FooNet on ten datasets."),  # own label
        ("Which datasets was it evaluated on?", "", OWN_ACRONYM, "We evaluate on CIFAR-10.", "We evaluate CBMs on three datasets."),  # recurring acronym
        # a name the abstract reports scores on is one it used, however often it writes it
        ("What environment do they test in?", "", SCORED_TWICE, "Tested, it gains 23 points in ScienceWorld.", "We test it in an environment."),
        ("Which models were compared?", "", "", "We compare against LLaMA-3 and GPT-4.", "We compare SGD and Adam here."),  # too short
        ("What learning rate was used?", "", "", "We use a learning rate of 3e-4.", "We use 3e-4."),
        ("What batch size was used?", "", "", "A batch size of 256 is used.", "We use 256."),
        ("How many GPUs were used?", "", "We train on 8 GPUs.", "We train on 8 GPUs.", "We train on many GPUs."),
        ("What licence is the code released under?", "", "", "Code is released under the MIT license.", "Code is released."),
        ("Which university are the authors from?", "", "", "Work done at the University of Oxford.", "Work done in Oxford."),
        ("Who were the authors of the paper?", "", "", "Smith et al. proposed it.", "It was proposed in 2020."),
        ("How long did training take?", "", "", "Training took 3 days.", "Training was fast."),
        ("How many epochs was it trained for?", "", "", "We train for 90 epochs.", "We train for 90 steps."),
        ("Which hyperparameters matter?", "", "", "The key hyper-parameter is depth.", "Depth matters."),
        ("Which optimizer was used to train it?", "", "", "We train with AdamW.", "We train with care."),
        ("When was it published?", "", "", "It appeared in 2021.", "It appeared recently."),
        ("Who funded the work?", "", "", "Supported by an NSF grant.", "Supported by friends."),
        ("What is the grant number?", "", "", "Supported by grant 123.", "Supported by friends."),
        ("How many random seeds were used?", "", "", "Results average 5 seeds.", "Results average 5 runs."),
        # where the code is: a sentence that gives it, not the method's own sentences
        ("Is FooNet open source?", "FooNet", "", "Code is available at https://github.com/x/y.", "FooNet is a fast open model."),
        ("Where can I find the code for FooNet?", "FooNet", "", "We release our code and weights.", "FooNet generates code."),
        ("Is the code available?", "", "", "Our implementation is publicly available.", "We write code for robots."),
        ("Did they release their code?", "", "", "The models are fully open.", "We release a benchmark."),
        ("Did they release their attack code publicly?", "", "", "Our code is released.", "We extract prompts with attacks."),
        ("Did they make their implementation publicly available?", "", "", "Code: https://x.org", "We implement it."),
        ("Is FooNet open source?", "FooNet", "", "We will open-source our code.", "We evaluate FooNet with open-source LLMs."),
        ("Is FooNet open source?", "FooNet", "", "We open-sourced FooNet.", "Open-source models lag behind."),
        ("Is FooNet open source?", "FooNet", "", "FooNet is an open-source framework for X.", "FooNet beats open-source LLMs."),
        ("Is the code available?", "", "", "The code is public.", "Most LLMs have only released partial artifacts, such as inference code."),
        ("Is there code released for it?", "", "", "We provide publicly available implementations.", "Publicly available datasets are used."),
        # a digit inside a name counts nothing
        ("What accuracy does it reach?", "", "", "It reaches 81.2% on GSM8K.", "It is strong on GSM8K and GPT-4 tasks."),
        ("Up to what maximum sequence length is it trained?", "", "", "It trains on 128K tokens.", "It beats FlashAttention-2."),
        # "which model achieves the best score" asks for a model's name
        ("Which LLM achieves the highest score?", "", "", "GPT-4o is the best LLM overall.", "We evaluate 25 LLMs."),
        # "what is it built on" asks for a named thing
        ("What architecture is the encoder built on?", "", "", "The encoder is built on ViT-B/16.", "The encoder is built on a backbone."),
        ("What are the names of the two algorithms?", "", "Two algorithms.", "We develop two algorithms, $\\texttt{PDI-CP}$ and JDI-CP.", "Our algorithms are fast and simple, unlike those in prior work on PDI-CP."),
        ("What is the new loss called?", "", "A loss.", "We train with TimeFlow Loss.", "The loss is new; SGD fails."),
        ("What causes the collapse?", "", "", "A spectral gap is the cause of the collapse.", "The collapse grows with depth."),
        # "compared to baselines" names no baseline
        ("Which baselines does it outperform?", "", "", "It outperforms best-of-N and self-repair.", "It scales better compared to baselines."),
        ("What regret bound does it prove?", "", "Regret.", "It has $\\tilde{O}(\\sqrt{T})$ regret.", "Regret is studied."),
        # "SOTA" abbreviates plain words; the paper's own "Our X" is not what it used
        ("Which three models did they probe?", "", "Models.", "The models they probe are GPT-4, Llama-2 and Mistral.", "The models they probe are three SOTA models."),
        ("Which datasets did they use?", "", "Our RT-choice GPs fit.", "We use MNIST and CIFAR-10 datasets.", "Our RT-choice GPs fit three datasets."),
        # an acronym written as singular and plural is the paper's own topic
        ("Which base model did they fine-tune?", "", "An LLM. Large Language Models (LLMs).", "We fine-tune Llama-2.", "Large Language Models (LLMs) are fine-tuned."),
        # things listed right after their noun answer "which specific"
        ("Which specific linear classifiers do they analyze?", "", "Linear classifiers.", "We analyze three linear classifiers, namely perceptron and logistic regression.", "Linear classifiers behave differently."),
        ("Which specific algorithms did they extend?", "", "Algorithms.", "We extend three search algorithms: annealing, tempering and nested sampling.", "Our algorithms are extended."),
        # an alternative noun coordinated with the asked one
        ("Which climate datasets or variables did they use?", "", "Data.", "We use ERA5 reanalysis datasets.", "We use real-world climate datasets."),
        # a running time is stated as an order, a duration or a comparison
        ("What is the running time of their algorithm?", "", "", "The algorithm runs in $O(n \\log n)$ time.", "Our algorithm is based on efficient sampling."),
        ("How does its runtime grow with the number of layers?", "", "", "Its runtime is linear in the number of layers.", "It captures propagation within and between layers."),
        ("What is the per-iteration computational complexity?", "", "", "Each iteration takes 3 seconds.", "Each iteration refines the estimate."),
        # a throughput is a number
        ("What training throughput does it reach?", "", "Training is fast.", "Training reaches 2,000 tokens per second.", "Training fits on a mere 18GB GPU."),
        # verbs of use: run X on, implement in, start from, serve as
        ("Which benchmark datasets did they run SRM on?", "SRM", "", "We run SRM on ColoredMNIST and Waterbirds.", "Experimental results validate SRM."),
        ("Which programming language did they implement it in?", "", "", "It is implemented in PyTorch.", "It solves a linear program."),
        ("Which base model did they start from?", "", "Models.", "We start from Qwen2.5-Math.", "It helps a strong base model."),
        ("Which model serves as the backbone?", "", "Models.", "LLaMA-2 serves as the backbone.", "A large model serves as the backbone."),
        ("Which baseline methods did they compare against?", "", "", "It outperforms FedAvg and FedProx.", "Experiments demonstrate effectiveness."),
        # a three-letter name beside "benchmark"/"dataset"; a recurring name right before the asked noun
        ("Which datasets were used in the experiments?", "", "", "Experiments use the cubic toy dataset and benchmark UCI.", "Experiments use a cubic toy dataset and a benchmark of our own."),
        ("What dataset did they evaluate it on?", "Agent-DocEdit", "DocEdit. DocEdit.", "We evaluate it on the DocEdit dataset.", "DocEdit improves on prior agents."),
        ("Which dataset did they use?", "", "Data.", "They use the ImageNet dataset.", "They use the SOTA dataset."),
        # environments are named things; "which <thing> was that?" asks its name
        ("Which benchmark environments did they run those experiments on?", "", "", "Experiments run on MuJoCo and Atari-57.", "Experiments run on standard environments."),
        ("Which public benchmark was that?", "", "", "We evaluate on the GLUE benchmark.", "We evaluate on one public benchmark."),
        # results or applications reported on a capitalised name name it
        ("Which real datasets did they apply their test to?", "", "", "We show applications to the Framingham Heart Study.", "We show applications to real data."),
        ("Which datasets did they use?", "", "", "We show the effectiveness on the 100K Atari suite.", "We show the effectiveness on real data."),
        # the methods compared against, a second entity noun, the LLM prompted
        ("Which existing methods did the authors compare against?", "", "", "It beats FedAvg and SCAFFOLD.", "It beats existing methods."),
        ("Which datasets and backbone networks did they evaluate on?", "", "", "We evaluate on CIFAR-100 with ResNet-18.", "We evaluate on standard datasets and backbones."),
        ("Which LLM did they prompt to produce the pairs?", "", "", "We prompt GPT-4o to produce pairs.", "We prompt an LLM to produce pairs."),
        # real networks and benchmark problems are data the paper was run on
        ("Which real transportation networks did they evaluate on?", "", "", "We evaluate on the PeMS-Bay road network.", "We evaluate on real networks."),
        ("What were the two benchmark problems they used?", "", "", "They used the CUTEst and MovieLens problems.", "They used two benchmark problems."),
        # "our model X" is the paper's own thing
        ("Which base model did they start from?", "", "Our model DPO-VP wins.", "We start from Qwen2.5-Math.", "Our model DPO-VP achieves RL-level performance."),
    ],
)  # fmt: skip
def test_meets_and_misses(question: str, label: str, text: str, meets: str, misses: str) -> None:
    assert met(question, meets, label=label, text=text)
    assert not met(question, misses, label=label, text=text)


@pytest.mark.parametrize(
    "question",
    [
        "Which code generation benchmarks does it use?",
        "How well does it generate code?",
        "Which open-source models does it evaluate?",
        "What is the source code of the programs it repairs?",
    ],
)
def test_code_as_a_topic_asks_no_code_link(question: str) -> None:
    assert not any(n.name == "the code" for n in needs(question, text="We study code."))


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which GPU can it fit a 128K context on?", True),
        ("On what hardware does the 8B model run with a 128K context?", True),
        ("How many TPUs were used?", True),
        ("What kind of accelerators does it target?", True),
        ("How does it handle sparsity efficiently on GPUs?", False),  # a setting, not the ask
        ("On one consumer GPU, what context length can the 8B model reach?", False),
        ("Does it use less GPU memory than the baseline?", False),
    ],
)
def test_hardware_is_needed_only_when_asked_for(question: str, asks: bool) -> None:
    hardware = [n for n in needs(question, text="We run on GPUs.") if n.name == "hardware"]
    assert bool(hardware) is asks


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("It enables sample partitioning, targeted distillation, and model ensembling.", True),
        ("Interactions between modalities (redundancy, uniqueness, and synergy) shape the data.", False),  # echoed
        ("We study redundancy, uniqueness, synergy and robustness.", False),  # one new thing is no list
    ],
)
def test_a_list_the_question_itself_gives_is_not_the_list_it_asks_for(sentence: str, met: bool) -> None:
    q = "What downstream uses are enabled by estimating redundancy, uniqueness and synergy per sample?"
    (need,) = [n for n in needs(q) if n.name == "a list"]
    assert need.met_by(sentence) is met


def test_own_label_at_sentence_end_is_no_dataset_name() -> None:
    assert not met("Which datasets was it evaluated on?", "We evaluate FooNet.", label="FooNet")


def test_short_acronym_at_sentence_end_is_no_name() -> None:
    assert not met("Which models were compared?", "We compare against SGD.")


@settings(derandomize=True, deadline=10000)
@given(st.text(max_size=200), st.text(max_size=20), st.text(max_size=200), st.text(max_size=200))
def test_needs_never_raises(question: str, label: str, text: str, sentence: str) -> None:
    for n in needs(question, label=label, text=text):
        assert isinstance(n.met_by(sentence), bool)


QUESTION_BITS = (
    "How many", "What is the", "Which datasets", "By what percentage", "How much", "learning rate", "GPUs",
    "annotators", "size", "evaluated on", "?", ",", "ImageNet-1K", "used",
)  # fmt: skip
asky = st.sampled_from(QUESTION_BITS)


@settings(derandomize=True, deadline=10000)
@given(st.lists(st.one_of(asky, st.text(max_size=8)), max_size=12), st.text(max_size=100))
def test_needs_never_raises_on_question_like_text(parts: list[str], sentence: str) -> None:
    question = " ".join(parts)
    for n in needs(question, label="FooNet", text=question):
        assert isinstance(n.met_by(sentence), bool)


TEXT = "We study large language models trained with reinforcement learning on ImageNet-1K with GPU-optimized kernels."


@pytest.mark.parametrize(
    ("question", "unknown"),
    [
        ("How well does it do on CIFAR-10?", ["CIFAR-10"]),
        ("Which LLM is used?", []),  # spelled out in the text
        ("Which RL algorithm?", []),
        ("What accuracy on ImageNet?", []),  # a prefix of ImageNet-1K
        ("How many GPUs?", []),  # plural of a name the text uses
        ("Does the LLM-driven repair fix SQL queries?", ["SQL"]),  # "-driven" is no part of the name
        ("Is it better than GPT-4?", ["GPT-4"]),
        ("what is the main result?", []),
        # a capitalised word inside the question is a proper name; opening a sentence it is not
        ("Does it bound the Wasserstein distance?", ["Wasserstein"]),
        ("Does it use reinforcement learning? Which kernels?", []),
        ("Is the Reinforcement learning part GPU-optimized?", []),  # the text has it, in any case
        # names joined into one are written when each is
        ("Does its ImageNet-GPU pipeline help?", []),
        ("Does its GPU-TPU offloading help?", ["GPU-TPU"]),
    ],
)
def test_unknown_names(question: str, unknown: list[str]) -> None:
    assert unknown_names(question, TEXT) == unknown


@pytest.mark.parametrize(
    ("question", "unknown"),
    [
        ("Which library was the sparse MoE benchmarked against?", []),  # "Mixture-of-Experts"
        ("Does it use MoA?", ["MoA"]),  # no "mixture of attention" written
        ("Is DiT used?", ["DiT"]),
    ],
)
def test_mixed_case_acronyms_spelled_out(question: str, unknown: list[str]) -> None:
    text = "ScatterMoE implements Sparse Mixture-of-Experts (SMoE) on GPUs with a diffusion transformer."
    assert unknown_names(question, text) == unknown


@pytest.mark.parametrize(
    ("question", "text", "unknown"),
    [
        # a closed compound gives its parts' initials: "autoencoder" is "auto" + "encoder"
        ("Does it use a VAE?", "a conditional variational autoencoder", []),
        ("Are SAEs used?", "sparse autoencoders steer the model", []),
        ("Does it use a VAE?", "a variance estimate", ["VAE"]),  # "ariance" is no word
        ("Does it use a VAE?", "a variational autoregressive model", ["VAE"]),
    ],
)
def test_compound_acronyms_spelled_out(question: str, text: str, unknown: list[str]) -> None:
    assert unknown_names(question, text) == unknown


@pytest.mark.parametrize(
    ("question", "unknown"),
    [("Can it do T2I?", []), ("Does it handle I2V?", []), ("Does it do T2V?", ["T2V"]), ("And P2P?", ["P2P"])],
)
def test_digit_acronyms_spelled_out(question: str, unknown: list[str]) -> None:
    # a digit stands for a homophone ("2" for "to"), as in "T2I" for "text-to-image"
    text = "We extend text-to-image models to image to video generation."
    assert unknown_names(question, text) == unknown


@pytest.mark.parametrize(
    ("question", "unknown"),
    [
        ("How does ARM compare?", ["ARM"]),  # only inside words: "line(ar m)odels"
        ("Which BERT variant?", ["BERT"]),  # only inside "RoBERTa"
        ("Is LLaMA used?", []),  # "LLaMA2": letters, then digits
        ("Does it beat GPT4?", []),  # "GPT-4"
        ("And the Llama 2 models?", []),
        ("Is ImageNet used?", []),  # "Imagenet-1k"
        ("Which CNNs?", []),  # a plural of a name the text writes
    ],
)
def test_a_name_is_written_as_words(question: str, unknown: list[str]) -> None:
    text = "We fine-tune RoBERTa and LLaMA2 linear models against GPT-4 on Imagenet-1k with a CNN."
    assert unknown_names(question, text) == unknown


@pytest.mark.parametrize(
    ("question", "unknown"),
    [
        ("Does it handle Mon-MDPs?", ["Mon-MDPs"]),  # a word and an acronym: a name
        ("Is the Lomb–Scargle periodogram used?", ["Lomb–Scargle"]),  # two proper names
        ("Does it minimise the Kullback-Leibler divergence?", []),  # the text writes "KL"
        ("Is it Self-Supervised?", []),  # the text writes it
    ],
)
def test_capitalised_compounds_are_names(question: str, unknown: list[str]) -> None:
    text = "We train self-supervised models on MDPs and minimise the KL divergence."
    assert unknown_names(question, text) == unknown


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("Our method yields a boost compared to best-of-N and self-repair.", True),  # plain-word baselines
        ("It consistently outperforms in-context learning.", True),
        ("It is better than the existing methods.", False),  # names none
        ("We release code for self-repair.", False),  # no comparison, no name
    ],
)
def test_baselines_are_named_by_a_comparison(sentence: str, met: bool) -> None:
    q = "Which baselines does the approach using repair pairs beat?"
    need = next(n for n in needs(q, label="AuPair", text=sentence) if n.name == "names of baselines")
    assert need.met_by(sentence) is met and need.specific


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        ("Which two?", "Which two?"),
        ("A paper studies X. Which datasets does it use?", "Which datasets does it use?"),
        (
            "In bandits where actions can be erased, what two elements do the algorithms rest on?",
            "what two elements do the algorithms rest on?",
        ),
        ("Summarise the method.", "Summarise the method."),
        ("When rewards are hidden, across how many tasks does it win?", "how many tasks does it win?"),
        # where to look is no part of what is asked
        (
            "What do prior methods assume, according to the streaming clustering paper?",
            "What do prior methods assume?",
        ),
        ("How do views arrive as described by the DSVC authors?", "How do views arrive?"),
        ("What, according to the authors, limits it?", "What, according to the authors, limits it?"),
    ],
)
def test_ask_clause(question: str, clause: str) -> None:
    assert ask_clause(question) == clause


@settings(derandomize=True, deadline=10000)
@given(st.text(max_size=200), st.text(max_size=200))
def test_ask_clause_and_names_never_raise(question: str, text: str) -> None:
    assert isinstance(ask_clause(question), str)
    assert isinstance(unknown_names(question, text), list)


@settings(derandomize=True, deadline=10000)
@given(st.text(alphabet="aAbB1 -s", max_size=8), st.text(alphabet="aAbB1 -s.", max_size=60))
def test_a_name_written_as_words_is_in_the_squashed_text(name: str, text: str) -> None:
    # whole words only narrow the squashed substring test they replaced
    if written(name, text):
        assert squash(name).removesuffix("s") in squash(text)


@pytest.mark.parametrize(
    ("question", "text", "sentence", "answered"),
    [
        # An affiliation is asked of the authors only.
        ("For which kind of companies do the models err most?", "", "Models err on larger companies.", True),
        ("Which university are the authors from?", "", "Models err on larger companies.", False),
        ("Which university are the authors from?", "", "We are at the University of Oslo.", True),
        # "written by" a model is no question about who wrote the paper.
        ("Why do responses written by a stronger model hurt?", "", "Such responses carry cues.", True),
        ("The paper was written by whom?", "", "Such responses carry cues.", False),
        # A rate is answered by an order of growth as well as by a number.
        ("What convergence rate is proven?", "", "We prove linear convergence rates.", True),
        ("What convergence rate is proven?", "", "We prove an $O(1/\\sqrt{n})$ rate.", True),
        ("What convergence rate is proven?", "", "We prove that the method converges.", False),
        ("What convergence rate is proven?", "", "It reaches the mini-max optimal convergence rate.", True),
        ("What convergence rate is proven?", "", "It attains optimal rates.", True),
        # The paper's own benchmark answers "what benchmark was built"; not "which benchmarks did they use".
        (
            "What benchmark was built to evaluate code?",
            "PerfBench is new. PerfBench has tasks.",
            "We build PerfBench, a benchmark.",
            True,
        ),
        (
            "Which benchmarks did they evaluate on?",
            "PerfBench is new. PerfBench has tasks.",
            "We evaluate PerfBench on benchmarks.",
            False,
        ),
    ],
)
def test_needs_ask_only_what_is_asked(question: str, text: str, sentence: str, answered: bool) -> None:
    assert met(question, sentence, text=text) is answered


def test_a_number_of_the_thing_asked_is_specific_any_number_is_not() -> None:
    """A specific need leads the evidence wherever its sentence ranks (selection.rank_evidence)."""
    (specific,) = needs("How many annotators labelled the images?", text=ANNOTATED)
    (generic,) = needs("How many annotators labelled the images?", text="We crowdsource image labels.")
    assert specific.specific and not generic.specific
    assert specific.met_by("Labels came from 12 annotators.") and not specific.met_by("We use 12 images of cats.")


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("We run attacks on 11 underly- ing large language models.", True),  # a PDF's line break
        ("We run attacks on 11 underlying large language models.", True),
        ("We run 11 attacks; the first- and second- order large language models differ.", False),
    ],
)
def test_a_word_split_by_a_line_break_is_one_word(sentence: str, met: bool) -> None:
    (need,) = needs("How many language models were attacked?", text="attacks on language models")
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("question", "sentence", "met"),
    [
        ("How many language models were evaluated?", "We evaluate six LLMs on three tasks.", True),
        ("How many graph neural networks were compared?", "We compare 12 GNNs.", True),
        ("How many language models were evaluated?", "We evaluate six GPUs.", False),  # not its initials
        # a noun that heads acronyms gives its one initial: "models" is read into "(M)LLMs" ...
        ("How many models were evaluated?", "We evaluate 12 LLMs.", True),
        ("How many models were evaluated?", "Experiments on three MLLMs and two datasets.", True),
        # ... any other noun does not: "metrics" is not "LLMs"
        ("How many metrics were evaluated?", "We evaluate 12 LLMs.", False),
    ],
)
def test_a_counted_thing_written_as_its_acronym(question: str, sentence: str, met: bool) -> None:
    (need,) = needs(question, text="language models, graph neural networks and metrics")
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        (
            "A study probed how much LLMs know about U.S. firms. For which firms do they err more?",
            "For which firms do they err more?",
        ),
        ("How many tasks, e.g. for images, are there?", "How many tasks, e.g. for images, are there?"),
        ("What is it? And how many layers?", "What is it? And how many layers?"),
        ("No question mark here. Really", "No question mark here. Really"),
    ],
)
def test_asked_part_drops_only_the_statements_before_the_question(question: str, asked: str) -> None:
    assert asked_part(question) == asked


def test_a_statement_setting_up_the_question_asks_for_nothing() -> None:
    setup = "A study probed how much LLMs know about U.S. firms. For which firms do they err more?"
    assert [n.name for n in needs(setup)] == ["a list"]  # of firms, not an amount
    assert [n.name for n in needs("How much do LLMs know about firms?")] == ["a number"]


@settings(derandomize=True, deadline=10000)
@given(st.text(max_size=200))
def test_asked_part_is_a_tail_of_the_question(question: str) -> None:
    assert " ".join(question.split()).endswith(" ".join(asked_part(question).split()))


@pytest.mark.parametrize(
    ("question", "asks_names"),
    [
        ("Which other map types does a new benchmark for map questions include?", False),
        ("Which method does the paper compare against on benchmarks?", False),
        ("Which datasets did they evaluate on?", True),
        ("Which of the models were tested?", True),
        ("What baselines does it compare to?", True),
    ],
)
def test_the_wh_words_own_noun_is_what_is_asked(question: str, asks_names: bool) -> None:
    assert any(n.name.startswith("names of") for n in needs(question)) is asks_names


@pytest.mark.parametrize(
    ("question", "required"),
    [
        # "what kind of X" is answered by a description as often as by a name: it never refuses
        ("Which kind of models did they evaluate?", False),
        ("What type of datasets was the method evaluated on?", False),
        ("What sorts of baselines does it outperform?", False),
        # a plain "which X" asks for the named things
        ("Which models did they evaluate?", True),
        ("Which datasets was the method evaluated on?", True),
    ],
)
def test_a_kind_of_named_thing_is_asked_without_requiring_a_name(question: str, required: bool) -> None:
    (need,) = [n for n in needs(question) if n.name.startswith("names of")]
    assert need.required is required and need.specific


BEATS = "Our method outperforms 12 state-of-the-art clustering methods on five datasets."


@pytest.mark.parametrize(
    ("question", "sentence", "answered"),
    [
        ("How many baselines does it beat?", BEATS, True),  # the methods it outperforms, counted
        ("How many competitors does it outperform?", BEATS, True),
        ("How many baselines does it beat?", "We study 12 clustering methods.", False),  # no comparison
        ("How many baselines does it beat?", "It outperforms strong methods by a wide margin.", False),  # no count
        # a PDF's line breaks inside words: one word each
        ("How many baselines does it beat?", "It beats 9 heavi- ly tun- ed competing methods.", True),
    ],
)
def test_baselines_are_counted_as_the_methods_beaten(question: str, sentence: str, answered: bool) -> None:
    text = f"Clustering is hard. {sentence}"
    assert [n.name for n in needs(question, text=text)] == ["a number of baselines"]
    assert met(question, sentence, text=text) is answered


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("It offers more than 3$\\times$ speedup over FP16 execution.", True),  # the speedup, not the thing
        ("Inference runs 3 times faster.", True),  # beside the thing asked of
        ("Inference is efficient and accurate.", False),
    ],
)
def test_a_speedup_is_met_beside_the_word_speedup(sentence: str, met: bool) -> None:
    q = "What inference speedup does it report?"
    (need,) = needs(q, text=f"Inference matters. {sentence}")
    assert need.met_by(sentence) is met


def test_other_measures_keep_their_thing() -> None:
    """ "What codebook size": a cache size beside a number is no size of the codebook."""
    text = "We learn a codebook. It reduces KV cache size by 87.5%."
    (need,) = needs("What codebook size does it use?", text=text)
    assert not need.met_by("It reduces KV cache size by 87.5%.")


@pytest.mark.parametrize(
    ("question", "asks_time"),
    [("How long a context can it handle on one GPU?", False), ("How long does training take?", True)],
)
def test_how_long_a_thing_asks_no_time(question: str, asks_time: bool) -> None:
    """ "How long a context": a length, not a time."""
    asked = needs(question, text="Context lengths of up to 1M tokens.")
    assert any(n.name == "a duration" for n in asked) is asks_time


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("Agents designed with it achieve SOTA performance on Webshop and Crafter.", True),
        ("Results on the Crafter suite are strong.", True),
        ("Performance on the benchmark improves.", False),  # names nothing
        ("Agents designed with it plan ahead in Minecraft.", False),  # a name, but no results
    ],
)
def test_benchmarks_are_named_where_results_are_reported(sentence: str, met: bool) -> None:
    q = "On which benchmarks did agents built with it reach state-of-the-art results?"
    need = next(n for n in needs(q, label="AgentKit", text=sentence) if n.name == "names of benchmarks")
    assert need.met_by(sentence) is met


def test_a_duration_may_be_counted_in_steps() -> None:
    """ "How long until …": "at $n$ iterations" says how long, as hours would."""
    (need,) = needs("How long until the deviation shrinks to zero?")
    assert need.met_by("The deviation reduces to zero roughly at $n$ iterations.")
    assert not need.met_by("The deviation reduces to zero.")


@pytest.mark.parametrize(
    ("question", "names"),
    [
        # an auxiliary ends the wh-phrase: "bounds" is the subject, no bound is asked
        ("What quantities do those bounds depend on?", ["a list"]),
        ("What is the codebook size?", ["a number of codebook"]),
        ("What regret bound does it achieve?", ["a number of regret"]),
    ],
)
def test_an_auxiliary_ends_the_measured_phrase(question: str, names: list[str]) -> None:
    text = "Our codebook and the regret bound depend on the density and the Hessian."
    assert [n.name for n in needs(question, text=text)] == names


def test_two_counts_asked_one_given_answers_in_part() -> None:
    text = "ECP beats 10 benchmark algorithms on 30 synthetic functions. Test problems are hard."
    asks = needs("How many competing algorithms and how many test problems was it evaluated on?", text=text)
    required = [n for n in asks if n.required]
    assert [n.name for n in required] == ["a number of algorithms or a number of problems"]
    assert required[0].met_by("ECP beats 10 benchmark algorithms on 30 synthetic functions.")
    assert not required[0].met_by("Test problems are hard.")


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("We design a data structure that uses $O(nd)$ space.", True),
        ("The data structure is simple.", False),
    ],
)
def test_space_is_met_by_an_order(sentence: str, met: bool) -> None:
    (need,) = needs("How much space does the data structure require?", text="space of the data structure")
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("CLPRNet reaches 30 FPS inference speed on CCPD.", ["a number of inference"]),
        ("CLPRNet detects plates on CCPD.", ["a number of inference"]),
    ],
)
def test_a_speed_is_a_number(text: str, names: list[str]) -> None:
    (need,) = needs("What inference speed does CLPRNet reach?", text=text)
    assert need.name == names[0]
    assert need.met_by(text) is ("30" in text)


@pytest.mark.parametrize(
    ("question", "sentence", "met"),
    [
        ("What approaches do they propose for it?", "We propose two approaches: A and B.", True),
        ("What approaches do they propose for it?", "Other approaches exist.", False),
        ("Which estimators did they develop?", "We develop three families of estimators.", True),
    ],
)
def test_the_things_they_did_lead(question: str, sentence: str, met: bool) -> None:
    (need,) = [n for n in needs(question, text="approaches and estimators") if " they " in n.name]
    assert not need.required
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("question", "sentence", "met"),
    [
        # "which specific X" is answered by a sentence that names one, not by one about X
        ("Which specific solver did they call?", "We call the HiGHS solver on each instance.", True),
        ("Which specific solver did they call?", "The solver is fast on each instance.", False),
        ("Which particular datasets did they use?", "We use CIFAR-10 and SVHN datasets.", True),
    ],
)
def test_which_specific_asks_for_a_name(question: str, sentence: str, met: bool) -> None:
    text = "The solver is fast. We use datasets."
    specific = [n for n in needs(question, text=text) if n.name.startswith("a specific")]
    assert len(specific) == 1 and specific[0].required and specific[0].met_by(sentence) is met


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("Evaluations on seven benchmark forward and inverse tasks show gains.", True),
        ("Seven methods are compared on benchmark tasks.", False),  # a number of methods
        ("We evaluate on 12 tasks.", True),
    ],
)
def test_a_number_before_the_asked_modifier(sentence: str, met: bool) -> None:
    (need,) = needs("How many benchmark tasks were used?", text="benchmark tasks")
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("Our meta-agent, trained with just one GPU hour, beats the baseline.", True),
        ("Training takes 3 days on 8 GPUs.", True),
        ("Training is cheap and beats 3 baselines.", False),
    ],
)
def test_compute_is_counted_in_its_units(sentence: str, met: bool) -> None:
    (need,) = needs("How much compute did training take?", text="trained with one GPU hour")
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("Each machine sends communication linear in its sparsity and logarithmic in the dimension.", True),
        ("Machines report to a fusion center.", False),
    ],
)
def test_communication_is_met_by_an_order(sentence: str, met: bool) -> None:
    (need,) = needs("How much does each machine need to communicate?", text="machines communicate")
    assert need.met_by(sentence) is met


@pytest.mark.parametrize(
    ("question", "own"),
    [
        # the user's own situation, in the first person, is left out ...
        (
            "For pooled PCR screening we've seen samples diluted. Has anyone generalized group testing?",
            "Has anyone generalized group testing?",
        ),
        (
            "I'm asking an LLM for probabilities. It says 0.7. Which paper documents this?",
            "It says 0.7. Which paper documents this?",
        ),
        # ... a statement about a paper stays
        (
            "A study probed LLMs on U.S. firms. For which firms do they err?",
            "A study probed LLMs on U.S. firms. For which firms do they err?",
        ),
        ("What do we know about it?", "What do we know about it?"),  # the question itself is kept whole
    ],
)
def test_without_user_context(question: str, own: str) -> None:
    assert without_user_context(question) == own


def test_a_name_in_the_users_situation_is_no_name_the_paper_must_write() -> None:
    question = "For pooled PCR screening we've seen samples diluted. Has anyone generalized group testing?"
    assert unknown_names(without_user_context(question), "Group testing with dilution.") == []
    assert unknown_names(question, "Group testing with dilution.") == ["PCR"]


def test_the_sentence_that_gives_the_code_leads_from_anywhere() -> None:
    (need,) = needs(
        "Is there code released for the robust tests?", text="We provide publicly available implementations."
    )
    assert need.specific and need.met_by("We provide publicly available implementations.")


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("And for Equal Opportunity, how much accuracy do they lose?", "For Equal Opportunity, we show an O(1) loss."),
        ("What about Demographic Parity, what do they get?", "For Demographic Parity the loss is small."),
    ],
)
def test_a_topic_set_first_leads(question: str, named: str) -> None:
    """The name a follow-up sets first ("And for X, …") is what the sentence must be about, which
    leads; a name further in ("… on Stack Overflow") is no such need."""
    text = f"Accuracy drops by 3%. {named}"
    first = needs(question, text=text)[0]
    assert first.met_by(named) and not first.met_by("Accuracy drops by 3%.")
    later = needs("What BLEU does it get on Stack Overflow?", text="Stack Overflow. BLEU 3.")
    assert not any(n.name.startswith("the named") for n in later)


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        # a count stated against another quantity answers "how many"
        ("The model is identifiable with a number of observables equal to the number of parameters.", True),
        ("The observables needed grow linearly in the dimension.", True),
        ("Previous bounds on the observables needed were exponential in the number of parameters.", True),
        # a relation word that is no relation ("linear observables"), or before the noun
        ("We study linear observables of the latent layer.", False),
        ("Equal to the latents, observables are binary.", False),
    ],
)
def test_a_count_stated_against_another_quantity_answers_how_many(sentence: str, met: bool) -> None:
    (need,) = needs("How many observables are needed?", text="binary observables and latents")
    assert need.met_by(sentence) is met

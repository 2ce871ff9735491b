"""General vocabulary of scientific English that types candidate terms.

These are head nouns and modifiers of the field's language (what makes a phrase a task, a method
or a metric), not names of particular papers' artifacts.
"""
from __future__ import annotations

#: Head nouns (lemmas) of task phrases: "time-series anomaly detection", "image generation".
TASK_HEADS = frozenset("""
detection segmentation classification prediction generation forecasting recognition estimation
translation retrieval answering reasoning planning control synthesis editing captioning localization
tracking reconstruction completion summarization imputation discovery navigation compression
denoising super-resolution inpainting identification parsing tagging labeling labelling grounding
registration restoration deblurring dehazing upsampling interpolation extrapolation transcription
diarization separation enhancement verification attribution unlearning alignment manipulation
grasping locomotion exploration recommendation ranking simulation design modeling modelling
understanding interpretation interpretability explanation explainability generalization adaptation
transfer decoding annotation monitoring diagnosis prognosis screening captioning optimization
optimisation routing scheduling docking folding prognostics forecast nowcasting merging pruning
compression evaluation benchmarking tracking acceleration solving decision-making differentiation
integration coordination selection tokenization calibration staging extraction segmentation
captioning reidentification re-identification retargeting
""".split())

#: Heads of either a task or a method phrase ("spectral clustering" the method, "graph clustering" the task):
#: typed like a task head by the phrase rule, and like a method head where a method head is asked for.
EITHER_HEADS = frozenset("""clustering distillation inference matching quantization regression""".split())

#: Heads that make a task only with a specific modifier (never alone).
WEAK_TASK_HEADS = frozenset("""inference sampling optimization optimisation search evaluation design modeling modelling
understanding generalization adaptation transfer decoding alignment regression interpretation
explanation analysis learning""".split())

#: Head nouns (lemmas) of method phrases: "graph neural network", "flow matching".
METHOD_HEADS = frozenset("""
network autoencoder auto-encoder transformer algorithm descent attention decomposition factorization
factorisation sampler kernel encoder decoder estimator architecture mechanism loss regularization
regularisation tuning fine-tuning finetuning training pretraining pre-training search filter policy
optimizer optimiser operator machine forest tree model models classifier perceptron gan vae lstm rnn
cnn mlp transport learning coding method framework pooling normalization normalisation dropout
augmentation propagation backpropagation gradient iteration iterations projection approximation
relaxation prompting chain-of-thought retrieval-augmented ensemble bagging boosting hashing
sketching smoothing bootstrap transform field sampling search fields flow flows rule objective
technique strategy paradigm scheme solver head layer layers module block unit units hypothesis
theorem minimization minimisation gate gates relaxation oracle estimator predictor surrogate testing
summation discretization discretisation diffusion ascent sketching carlo
""".split())

#: Method heads too generic to stand with only a generic modifier ("a new model", "the network").
GENERIC_HEADS = frozenset("""
method methods model models framework approach approaches technique techniques algorithm algorithms
network networks system systems strategy strategies scheme schemes architecture architectures module
modules baseline baselines tool tools pipeline paradigm solution solutions procedure mechanism
mechanisms objective objectives loss losses layer layers block blocks unit units head representation
representations analysis process processes field fields rule rules operator variant variants version
versions design designs learning training inference data task tasks problem problems setting
settings work works study studies paper result results performance search searches sampling
""".split())

#: Modifiers that say nothing about which method or task is meant; stripped from phrase edges.
GENERIC_MODIFIERS = frozenset("""
a an the this that these those our their its his her my your we they such other another each every
any some many several various different novel new existing current prior previous recent standard
conventional traditional typical popular common classical classic modern state-of-the-art sota
simple simpler general generic unified effective efficient powerful strong lightweight proposed
resulting underlying corresponding respective specific particular certain key main major first
second third final large small larger smaller largest smallest high low higher lower better best
good great significant substantial extensive comprehensive diverse multiple single same similar
whole entire full overall original additional further more most less few both following above
well-known widely-used widely used commonly-used advanced sophisticated principled flexible scalable
practical theoretical empirical fundamental critical important crucial challenging difficult hard
naive vanilla improved enhanced better-performing efficient one two three four five six seven eight
nine ten tens hundreds thousands millions billions
""".split())

#: Nouns naming a dataset or benchmark when they follow (or precede) a name: "the COCO benchmark".
DATASET_NOUNS = frozenset("""dataset datasets benchmark benchmarks corpus corpora suite suites collection database testbed
test-bed leaderboard challenge environment environments""".split())

#: Nouns naming a metric when they head a phrase: "worst-class accuracy", "F1 score".
METRIC_HEADS = frozenset("""accuracy error score rate precision recall distance divergence similarity correlation coefficient
perplexity likelihood reward return regret gap ratio""".split())

#: Upper-case words that look like names but are not entities of the field.
NOT_NAMES = frozenset("""
AI ML DL NLP CV RL GPU GPUs CPU CPUs TPU TPUs API APIs SOTA ID IDs OOD IID I.I.D. II III IV US USA
UK EU URL URLs PDF PhD NP USD OK TODO Q&A QA I II 1D 2D 3D 4D K N M L X Y Z T OpenAI DeepMind Google
Meta Microsoft NVIDIA Nvidia Anthropic HuggingFace IBM Amazon Apple Baidu Alibaba Tencent GitHub
arXiv
""".split())

#: Verbs with which a paper says it introduces something.
PROPOSE_VERBS = frozenset("""propose introduce present develop design devise formulate offer build construct create release
curate establish contribute""".split())

#: Words that, right after "called"/"named"/..., introduce the paper's own name for its artifact.
NAMING_VERBS = frozenset("""call name dub term coin""".split())

#: Vocabulary forms too ambiguous to match on their own ("a set of", "memory" as a resource).
AMBIGUOUS_FORMS = frozenset("""set sets trajectory trajectories protein proteins memory reward rewards return returns novelty
coverage programs networks""".split())

#: Method names too general to be worth a node ("neural network", "deep learning"): never extracted.
GENERIC_METHOD_TERMS = frozenset(
    """neuralnetwork deepneuralnetwork deepnetwork deeplearning machinelearning artificialintelligence ai
ml dl nn dnn ann model algorithm policy learning attention optimization optimisation gradient
iteration approximation ensemble augmentation regularization regularisation programming prompting
flow sampler transformation kernel finetuning fine tuning pretraining training inference sampling
embedding representation statisticallearning supervisedlearning onlinelearning neuralmodel
languagemodel lm sota stateoftheart baseline heuristic simulation estimator classifier encoder
decoder architecture module basemodel""".split()
)

#: Adjectives that make a generic head specific ("convolutional network", "generative model").
TECHNICAL_ADJECTIVES = frozenset("""
convolutional recurrent generative variational adversarial bayesian stochastic spiking residual
autoregressive contrastive discriminative probabilistic causal hierarchical equivariant invariant
sparse linear nonlinear non-linear kernelized gaussian markovian graphical latent implicit
self-supervised semi-supervised unsupervised supervised federated multimodal multi-modal diffusion
energy-based score-based flow-based attention-based transformer-based physics-informed geometric
hamiltonian lagrangian riemannian spectral temporal spatial spatiotemporal spatio-temporal recursive
differentiable neural-symbolic symbolic quantum evolutionary genetic bilinear low-rank dense
denoising masked pretrained pre-trained multilingual visual generalist foundation embodied
""".split())

#: Leading participles and adjectives that evaluate or situate rather than name ("selected models").
EVALUATIVE = frozenset("""
celebrated complex interesting heavy designed trainable enabling weak quality dimensional grained
developed selected trained published competing validated expressive optimal convenient useful
independent nuanced toy behaved underling usual relevant tailored future feasible initial fast slow
accurate precise reliable promising successful remarkable impressive notable excellent superior
inferior poor rich deep shallow wide narrow black-box white-box off-the-shelf learned learnable
given known explicit limited rigorous quick quicker easy easier optimized complicated
easy-to-implement unknown desired intended resulting related aforementioned respective greater
better stronger larger smaller comparable ineffective suboptimal inadequate insufficient
""".split())

#: Modifiers of "learning" that name a learning *setting* (a task: "offline reinforcement learning"),
#: as opposed to a technique ("contrastive learning").
LEARNING_SETTINGS = frozenset("""
offline online safe robust federated continual lifelong incremental multi-agent multiagent few-shot
zero-shot one-shot cooperative competitive private differentially partially observable open-set open
preference-based reward representation world model-based goal-conditioned multi-task multitask
decentralized distributed hierarchical inverse batch unsupervised semi-supervised weakly-supervised
positive-unlabeled noisy-label long-tailed imbalanced class-incremental domain-incremental
constrained
""".split())


#: Lexicons whose meanings exclude each other: a word may stand in at most one lexicon of a group
#: (tests/test_lexicon.py finds any that stands in two). The heads of task, method, metric and dataset
#: phrases; modifiers that say nothing (generic, evaluative) against modifiers that name something
#: (technical adjectives, learning settings).
CONTRADICTING: tuple[tuple[str, ...], ...] = (
    ("TASK_HEADS", "METHOD_HEADS", "EITHER_HEADS", "METRIC_HEADS", "DATASET_NOUNS"),
    ("GENERIC_MODIFIERS", "TECHNICAL_ADJECTIVES"),
    ("GENERIC_MODIFIERS", "LEARNING_SETTINGS"),
    ("EVALUATIVE", "TECHNICAL_ADJECTIVES"),
    ("EVALUATIVE", "LEARNING_SETTINGS"),
)

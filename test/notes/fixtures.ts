/** A short synthetic encounter (written for these tests; not from any data set). */
export const ENCOUNTER = `[doctor] hi ms. garcia , how are you doing today ?
[patient] hi doctor , not great .
[doctor] so what brings you in today ?
[patient] i've had a cough for three days and my chest feels tight .
[doctor] okay . any fever or chills ?
[patient] no .
[doctor] any shortness of breath ?
[patient] yes , when i climb the stairs i get short of breath .
[doctor] are you taking any medications ?
[patient] i take metforman five hundred milligrams twice a day for my diabetes .
[doctor] any allergies to medications ?
[patient] i'm allergic to penicillin , it gives me a rash .
[doctor] do you smoke ?
[patient] i quit smoking ten years ago .
[doctor] okay , let me examine you . your blood pressure is one twenty over eighty and your oxygen saturation is ninety eight percent .
[doctor] on exam , i hear some wheezing in both lungs . your heart has a regular rhythm with no murmur .
[doctor] the chest x-ray shows no pneumonia .
[doctor] i think this is acute bronchitis .
[doctor] i'm going to prescribe an albuterol inhaler , two puffs every four hours as needed .
[doctor] i want you to call us if you develop a fever or if the cough lasts more than two weeks .
[patient] okay , sounds good .`;

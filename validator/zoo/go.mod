module github.com/toolproof/toolproof/validator/zoo

go 1.26.5

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/kaptinlin/jsonschema v0.9.8
	github.com/qri-io/jsonschema v0.2.1
	github.com/xeipuuv/gojsonschema v1.2.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/kaptinlin/jsonpointer v0.4.28 // indirect
	github.com/qri-io/jsonpointer v0.1.1 // indirect
	github.com/xeipuuv/gojsonpointer v0.0.0-20180127040702-4e3ac2762d5f // indirect
	github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 // indirect
)

{{/* The objects' name: the release's, with the chart's name unless the release's already holds it. */}}
{{- define "kcscale.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "kcscale.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "kcscale.labels" -}}
{{ include "kcscale.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "kcscale.serviceAccountName" -}}
{{- default (include "kcscale.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{/* Where a secret setting's file is mounted: one folder per setting. */}}
{{- define "kcscale.secretDir" -}}
/etc/kcscale/secrets/{{ . | replace "." "-" }}
{{- end -}}

{{/* A setting's value as the settings file takes it: a list comma-separated, a whole number without an exponent
     (YAML numbers reach templates as floats), a backslash escaped as Java's properties format reads it. */}}
{{- define "kcscale.settingValue" -}}
{{- if kindIs "slice" . -}}
{{- join "," . -}}
{{- else if and (kindIs "float64" .) (eq . (floor .)) -}}
{{- int64 . -}}
{{- else -}}
{{- toString . | replace "\\" "\\\\" -}}
{{- end -}}
{{- end -}}
